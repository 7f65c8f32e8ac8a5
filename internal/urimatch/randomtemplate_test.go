package urimatch

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/yosida95/uritemplate/v3"
)

// randomTemplate is a template of up to four pieces: literals and
// expressions of any operator, with one to three variables of any
// modifier, from few names so that they repeat.
func randomTemplate(r *rand.Rand) string {
	var b strings.Builder
	lits := []string{"a", "/", ",", ".", ";", "=", "&", "?", "#", "x/y", "%41", "é", ":", "ab"}
	for range 1 + r.IntN(4) {
		if r.IntN(3) == 0 {
			b.WriteString(lits[r.IntN(len(lits))])
			continue
		}
		b.WriteByte('{')
		ops := "\x00+#./;?&"
		if op := ops[r.IntN(len(ops))]; op != 0 {
			b.WriteByte(op)
		}
		for i := range 1 + r.IntN(3) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString([]string{"x", "y", "z", "a.b"}[r.IntN(4)])
			switch r.IntN(4) {
			case 0:
				b.WriteByte('*')
			case 1:
				b.WriteString(":" + strconv.Itoa(1+r.IntN(4)))
			}
		}
		b.WriteByte('}')
	}
	return b.String()
}

// TestMatchAsUritemplateOnRandomTemplates: the same on templates made at
// random, with adjacent expressions and repeated variables.
func TestMatchAsUritemplateOnRandomTemplates(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for range 150 {
		raw := randomTemplate(r)
		tmpl, err := uritemplate.New(raw)
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		m, err := Compile(raw)
		if err != nil {
			t.Fatalf("Compile(%q): %v", raw, err)
		}
		uris := append(expansions(r, tmpl, 40), raw)
		for _, uri := range slices.Clone(uris) {
			uris = append(uris, mutate(r, uri), mutate(r, mutate(r, uri)))
		}
		for range 20 {
			uris = append(uris, randomString(r, 6))
		}
		for _, uri := range uris {
			sameAsLibrary(t, raw, tmpl, m, uri)
		}
		if t.Failed() {
			return
		}
	}
}
