package urimatch

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/yosida95/uritemplate/v3"
)

// templates cover every operator, several variables per expression,
// explode, prefix modifiers, adjacent expressions and literals with
// special characters.
var templates = []string{
	"", "plain", "test://items/{id}", "articles://items/{itemId}",
	"{x}", "{+x}", "{#x}", "{.x}", "{/x}", "{;x}", "{?x}", "{&x}",
	"{x*}", "{+x*}", "{#x*}", "{.x*}", "{/x*}", "{;x*}", "{?x*}", "{&x*}",
	"{x:3}", "{+x:3}", "{#x:2}", "{.x:1}", "{/x:4}", "{;x:3}", "{?x:2}", "{&x:5}",
	"{x,y}", "{+x,y}", "{#x,y}", "{.x,y}", "{/x,y}", "{;x,y}", "{?x,y}", "{&x,y}",
	"{x,y*}", "{x*,y}", "{/x*,y}", "{;x*,y*}", "{?x*,y}", "{.x,y*}", "{#x*,y:2}",
	"{x}{y}", "{x}{+y}", "{+x}{y}", "{/x}{/y}", "{.x}{.y}", "{;x}{;y}", "{?x}{&y}", "{x*}{y*}",
	"{x}/{x}", "{x}{x:2}", "{/x*}{/x}",
	"a{x}b", "a{+x}b{#y}", "{x},{y}", "{x}.{y}", "{x}={y}", "{x}?{y}",
	"test://items{/segments*}", "test://items/{ids}", "test://search{?q,lang}", "test://s{?q*}{&page}",
	"test://m{;a,b*}/x", "test://f/{name}.{ext}", "test://f/{+path}/raw", "test://f/{+path*}{#frag}",
	"x%20y{x}%2Fz", "é{x}ü", "{a.b,c_d,e%20f}", "test://k/{x:10}{y:3}/{z}",
	"{?a,b,c,d}", "{/a,b,c}", "{;a,b:2,c*}", "{+a,b,c}{x}", "{#a}{#b}",
}

// alphabet is what the random values and junk are made of: value
// characters, every operator's separators, '%' and non-ASCII.
const alphabet = "aZ09-._~,;/=&?#:+%! 'é\x00\xffzz"

func randomString(r *rand.Rand, most int) string {
	runes := []rune(alphabet)
	var b strings.Builder
	for range r.IntN(most + 1) {
		b.WriteRune(runes[r.IntN(len(runes))])
	}
	return b.String()
}

func randomValue(r *rand.Rand) uritemplate.Value {
	switch r.IntN(4) {
	case 0:
		return uritemplate.Value{}
	case 1:
		var list []string
		for range 1 + r.IntN(4) {
			list = append(list, randomString(r, 4))
		}
		return uritemplate.List(list...)
	case 2:
		var kv []string
		for range 1 + r.IntN(3) {
			kv = append(kv, randomString(r, 3), randomString(r, 3))
		}
		return uritemplate.KV(kv...)
	}
	return uritemplate.String(randomString(r, 6))
}

// expansions are URIs the template writes for random values.
func expansions(r *rand.Rand, tmpl *uritemplate.Template, n int) []string {
	var uris []string
	for range n {
		values := uritemplate.Values{}
		for _, name := range tmpl.Varnames() {
			values[name] = randomValue(r)
		}
		if uri, err := tmpl.Expand(values); err == nil {
			uris = append(uris, uri)
		}
	}
	return uris
}

// mutate inserts, deletes or repeats a piece of uri.
func mutate(r *rand.Rand, uri string) string {
	if uri == "" {
		return randomString(r, 3)
	}
	i := r.IntN(len(uri))
	switch r.IntN(3) {
	case 0:
		return uri[:i] + randomString(r, 2) + uri[i:]
	case 1:
		return uri[:i] + uri[min(len(uri), i+1+r.IntN(3)):]
	}
	j := i + r.IntN(len(uri)-i) + 1
	return uri[:j] + uri[i:j] + uri[j:]
}

// sameAsLibrary fails t unless the matcher reads uri as the library does.
func sameAsLibrary(t *testing.T, raw string, tmpl *uritemplate.Template, m *Matcher, uri string) {
	t.Helper()
	want, got := tmpl.Match(uri), m.Match(uri)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("template %q, URI %q:\n got %s\nwant %s", raw, uri, show(got), show(want))
	}
}

func show(v uritemplate.Values) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%#v", map[string]uritemplate.Value(v))
}

// TestMatchAsUritemplate: on every template of the table, the matcher
// reads the same variables and values as the library's Match, and matches
// the same URIs: URIs the template writes for random values, those URIs
// altered, and junk.
func TestMatchAsUritemplate(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 1))
	for _, raw := range templates {
		tmpl, err := uritemplate.New(raw)
		if err != nil {
			t.Fatalf("uritemplate.New(%q): %v", raw, err)
		}
		m, err := Compile(raw)
		if err != nil {
			t.Fatalf("Compile(%q): %v", raw, err)
		}
		uris := append(expansions(r, tmpl, 100), raw)
		for _, uri := range slices.Clone(uris) {
			uris = append(uris, mutate(r, uri), mutate(r, mutate(r, uri)))
		}
		for range 100 {
			uris = append(uris, randomString(r, 8))
		}
		for _, uri := range uris {
			sameAsLibrary(t, raw, tmpl, m, uri)
		}
	}
}
