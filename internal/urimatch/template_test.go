package urimatch

import (
	"testing"

	"github.com/yosida95/uritemplate/v3"
)

// Compile refuses the templates the library refuses, with an error rather
// than a matcher that would read them some other way.
func TestCompileRefusesMalformedTemplates(t *testing.T) {
	for _, raw := range []string{
		"{", "}", "a{x", "a}x", "{}", "{x,}", "{,x}", "{=x}", "{!x}", "{|x}",
		"{x:0}", "{x:01}", "{x:10000}", "{x:}", "{x:a}", "{x:3*}", "{x*:3}", "{x**}",
		"{.}", "{x.}", "{.x.}", "{x..y}", "{x-y}", "{x%4}", "{x%zz}", "{x y}", "{{x}}",
	} {
		if _, err := uritemplate.New(raw); err == nil {
			t.Errorf("uritemplate.New(%q) accepts it: the case is wrong", raw)
		}
		if m, err := Compile(raw); err == nil {
			t.Errorf("Compile(%q) = %v, want an error", raw, m)
		}
	}
}
