package redact

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestTree(t *testing.T) {
	in := map[string]any{
		"query":    "cats",
		"password": "hunter2",
		"nested": map[string]any{
			"accessToken": "abc",
			"list": []any{
				map[string]any{"api_key": "k1", "id": json.Number("1")},
				"plain",
				"see https://u:pw@h/",
				map[string]any{"credentials": map[string]any{"secret": "s"}},
			},
		},
		// A sensitive key's whole subtree goes.
		"authorization": map[string]any{"scheme": "Bearer", "value": "t"},
		"n":             json.Number("9007199254740993"),
		"ok":            true,
		"none":          nil,
	}
	want := map[string]any{
		"query":    "cats",
		"password": Marker,
		"nested": map[string]any{
			"accessToken": Marker,
			"list": []any{
				map[string]any{"api_key": Marker, "id": json.Number("1")},
				"plain",
				"see https://[REDACTED]@h/",
				map[string]any{"credentials": map[string]any{"secret": Marker}},
			},
		},
		"authorization": Marker,
		"n":             json.Number("9007199254740993"),
		"ok":            true,
		"none":          nil,
	}
	if got := Tree(in); !reflect.DeepEqual(got, want) {
		t.Errorf("Tree = %#v\nwant %#v", got, want)
	}
	if got := Tree("token=abc"); got != "token=[REDACTED]" {
		t.Errorf("Tree(string) = %#v", got)
	}
	if got := Tree(json.Number("3")); got != json.Number("3") {
		t.Errorf("Tree(number) = %#v", got)
	}
}

// panicky's MarshalJSON panics, as a careless one might.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("boom") }

// failing's MarshalJSON fails with a message that holds a secret.
type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("password=hunter2") }

func TestJSON(t *testing.T) {
	type creds struct {
		User  string `json:"user"`
		Token string `json:"token"` // named token in JSON only
		Skip  string `json:"-"`
	}
	type req struct {
		Query   string            `json:"query"`
		APIKey  string            // no tag: key "APIKey"
		Creds   *creds            `json:"creds"`
		Headers map[string]string `json:"headers"`
		Limit   int64             `json:"limit"`
		private string
	}
	in := req{
		Query:   "cats",
		APIKey:  "k",
		Creds:   &creds{User: "ann", Token: "t", Skip: "s"},
		Headers: map[string]string{"Cookie": "c=1", "Accept": "json"},
		Limit:   9007199254740993, // not representable as float64
		private: "p",
	}
	got, err := JSON(&in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"query":   "cats",
		"APIKey":  Marker,
		"creds":   map[string]any{"user": "ann", "token": Marker},
		"headers": map[string]any{"Cookie": Marker, "Accept": "json"},
		"limit":   json.Number("9007199254740993"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JSON = %#v\nwant %#v", got, want)
	}
	if in.Creds.Token != "t" || in.Headers["Cookie"] != "c=1" {
		t.Error("JSON modified its input")
	}

	raw, err := JSON(json.RawMessage(`{"secret":"s","n":1}`))
	if err != nil || !reflect.DeepEqual(raw, map[string]any{"secret": Marker, "n": json.Number("1")}) {
		t.Errorf("JSON(RawMessage) = %#v, %v", raw, err)
	}
	if v, err := JSON(nil); v != nil || err != nil {
		t.Errorf("JSON(nil) = %#v, %v", v, err)
	}
}

func TestJSONUnencodable(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for name, v := range map[string]any{
		"chan":     map[string]any{"c": make(chan int)},
		"func":     []any{func() {}},
		"cycle":    cyclic,
		"panics":   panicky{},
		"fails":    failing{},
		"bad json": json.RawMessage(`{`),
	} {
		got, err := JSON(v)
		if err == nil || got != nil {
			t.Errorf("%s: JSON = %#v, %v; want an error", name, got, err)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error carries the secret: %v", name, err)
		}
	}
}
