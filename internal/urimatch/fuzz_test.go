package urimatch

import (
	"strings"
	"testing"

	"github.com/yosida95/uritemplate/v3"
)

// FuzzMatchAsUritemplate: for any template the library accepts, Compile
// accepts it too, and reads any URI as the library's Match does, both the
// fuzzed URI and the one the template writes for values cut from it
// ("|" between variables, "^" between the items of a list).
func FuzzMatchAsUritemplate(f *testing.F) {
	for _, raw := range templates {
		f.Add(raw, raw)
		f.Add(raw, "a,b|c^d^e|%41=x")
	}
	f.Add("test://items{/segments*}", "test://items/a/b/c")
	f.Add("{;x*,y}", ";x=1;x;y=2,3")
	f.Fuzz(func(t *testing.T, raw, uri string) {
		// The library's own matcher is quadratic: keep its share small.
		if len(raw) > 64 || len(uri) > 256 {
			t.Skip()
		}
		tmpl, err := uritemplate.New(raw)
		if err != nil {
			return
		}
		m, err := Compile(raw)
		if err != nil {
			t.Fatalf("uritemplate.New accepts %q, Compile: %v", raw, err)
		}
		sameAsLibrary(t, raw, tmpl, m, uri)
		values := uritemplate.Values{}
		pieces := strings.Split(uri, "|")
		for i, name := range tmpl.Varnames() {
			if piece := pieces[i%len(pieces)]; strings.Contains(piece, "^") {
				values[name] = uritemplate.List(strings.Split(piece, "^")...)
			} else {
				values[name] = uritemplate.String(piece)
			}
		}
		if written, err := tmpl.Expand(values); err == nil {
			sameAsLibrary(t, raw, tmpl, m, written)
		}
	})
}
