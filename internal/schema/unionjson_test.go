package schema

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

type ujPath struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

type ujTarget struct {
	_      struct{} `discriminator:"kind"`
	Path   *ujPath  `variant:"path"`
	Active *struct {
		Pane string `json:"pane,omitempty"`
	} `variant:"active"`
}

type ujTree struct {
	Target   ujTarget          `json:"target"`
	Children []ujTree          `json:"children,omitempty"`
	ByName   map[string]ujTree `json:"byName,omitempty"`
}

// Unions rewrite to and from the wire form wherever they lie (a field, a
// slice's elements, a map's values, through a recursive type), keeping
// the order of every other key.
func TestUnionsRoundTrip(t *testing.T) {
	u, err := UnionsOf(reflect.TypeFor[ujTree]())
	if err != nil || u == nil {
		t.Fatalf("UnionsOf = %v, %v", u, err)
	}
	wire := `{"target":{"line":3,"kind":"path","path":"a.md"},"children":[{"target":{"kind":"active"}},{"target":{"kind":"active","pane":"left"}}],"byName":{"x":{"target":{"kind":"path","path":"b"}}}}`
	goForm, err := u.ToGo([]byte(wire))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"target":{"Path":{"line":3,"kind":"path","path":"a.md"}},"children":[{"target":{"Active":{"kind":"active"}}},{"target":{"Active":{"kind":"active","pane":"left"}}}],"byName":{"x":{"target":{"Path":{"kind":"path","path":"b"}}}}}`
	if string(goForm) != want {
		t.Errorf("ToGo =\n%s, want\n%s", goForm, want)
	}
	back, err := u.ToWire([]byte(`{"target":{"Path":{"path":"a.md","line":3},"Active":null},"children":[{"target":{"Path":null,"Active":{}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"target":{"kind":"path","path":"a.md","line":3},"children":[{"target":{"kind":"active"}}]}`; string(back) != want {
		t.Errorf("ToWire = %s, want %s", back, want)
	}
	for _, bad := range []string{`{"target":{"Path":null,"Active":null}}`, `{"target":{"Path":{},"Active":{}}}`} {
		if _, err := u.ToWire([]byte(bad)); err == nil || !strings.Contains(err.Error(), "ujTarget") {
			t.Errorf("ToWire(%s) = %v, want an error naming the union", bad, err)
		}
	}
	if u, err := UnionsOf(reflect.TypeFor[ujPath]()); u != nil || err != nil {
		t.Errorf("UnionsOf(a type without unions) = %v, %v, want nil, nil", u, err)
	}
}

// The rewrite costs time linear in the input however deep a recursive
// type nests its unions: a chain of 4000 levels against a flat list of
// as many nodes, of the same size.
func TestUnionsDepthIsLinear(t *testing.T) {
	u, err := UnionsOf(reflect.TypeFor[ujTree]())
	if err != nil {
		t.Fatal(err)
	}
	const n = 4000
	node := `{"target":{"kind":"path","path":"p"}`
	deep := strings.Repeat(node+`,"children":[`, n) + node + "}" + strings.Repeat("]}", n)
	flat := `{"target":{"kind":"active"},"children":[` + strings.Repeat(node+`,"children":[]},`, n) + node + "}]}"
	cost := func(in string) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			if _, err := u.ToGo([]byte(in)); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	d, f := cost(deep), cost(flat)
	t.Logf("deep %v, flat %v: ratio %.2f", d, f, float64(d)/float64(max(f, time.Microsecond)))
	if ratio := float64(d) / float64(max(f, time.Microsecond)); ratio > 10 {
		t.Errorf("deep %v against flat %v (%d and %d bytes): ratio %.1f", d, f, len(deep), len(flat), ratio)
	}
}
