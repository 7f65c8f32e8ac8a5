package schema

import (
	"encoding/json"
	"net/netip"
	"reflect"
	"testing"
	"time"
)

type plainOut struct {
	Name  string               `json:"name"`
	Tags  []string             `json:"tags,omitempty"`
	Attrs map[string]int       `json:"attrs"`
	Next  *plainOut            `json:"next,omitempty"`
	Any   any                  `json:"any"`
	Bytes []byte               `json:"bytes"`
	Deep  [][]map[string]*bool `json:"deep"`
}

type withTime struct {
	At time.Time `json:"at"`
}

type withNumber struct {
	N json.Number `json:"n"`
}

type selfEncoding struct{ v int }

func (s selfEncoding) MarshalJSON() ([]byte, error) { return json.Marshal(s.v) }

type nestedSelfEncoding struct {
	Items []selfEncoding `json:"items"`
}

type ptrText struct{}

func (*ptrText) MarshalText() ([]byte, error) { return []byte("x"), nil }

type withPtrText struct {
	T ptrText `json:"t"`
}

// keyedByAddr has a map key that marshals itself: it becomes a property
// name, any string.
type keyedByAddr struct {
	ByAddr map[netip.Addr]string `json:"byAddr"`
}

func TestOutputGuaranteed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ  reflect.Type
		want bool
	}{
		{reflect.TypeFor[plainOut](), true},
		{reflect.TypeFor[withTime](), false},
		{reflect.TypeFor[withNumber](), false},
		{reflect.TypeFor[nestedSelfEncoding](), false},
		{reflect.TypeFor[withPtrText](), false},
		{reflect.TypeFor[keyedByAddr](), true},
	} {
		s, err := Output(tc.typ)
		if err != nil {
			t.Fatalf("%v: %v", tc.typ, err)
		}
		if got := OutputGuaranteed(tc.typ, s); got != tc.want {
			t.Errorf("OutputGuaranteed(%v) = %v, want %v", tc.typ, got, tc.want)
		}
	}
	// A constraint in the schema is checked, whatever the type.
	s, _ := Output(reflect.TypeFor[plainOut]())
	s.Properties["name"].MinLength = new(int)
	if OutputGuaranteed(reflect.TypeFor[plainOut](), s) {
		t.Error("a schema with minLength is taken as guaranteed")
	}
}

// TestGuaranteedOutputsValidate checks the premise: values of a
// guaranteed type, nil or full, encode to JSON their schema accepts.
func TestGuaranteedOutputsValidate(t *testing.T) {
	t.Parallel()
	yes := true
	typ := reflect.TypeFor[plainOut]()
	s, err := Output(typ)
	if err != nil {
		t.Fatal(err)
	}
	if !OutputGuaranteed(typ, s) {
		t.Fatal("plainOut is not guaranteed")
	}
	v, err := NewValidator(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []plainOut{
		{},
		{Name: "a", Tags: []string{"x"}, Attrs: map[string]int{"k": 1}, Next: &plainOut{Name: "b"}, Any: []any{1, "2"},
			Bytes: []byte{0, 1}, Deep: [][]map[string]*bool{{{"1": &yes, "2": nil}}, nil}},
	} {
		b, _ := json.Marshal(out)
		if res := v.Check(json.RawMessage(b)); !res.Valid() {
			t.Errorf("%s: %s", b, res.Summary())
		}
	}
}
