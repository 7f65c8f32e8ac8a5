package mcperr

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Sinks keep the compiler from discarding the calls under measurement.
var (
	sinkCode  Code
	sinkError *Error
)

// benchErrors are the inputs of the classification benchmarks: the paths a
// failure takes through From and CodeOf, from cheapest to dearest.
var benchErrors = []struct {
	name string
	err  error
}{
	// A handler returned an *Error: the common case, which must not allocate.
	{"Error", NotFound("Item 7 not found")},
	// A service wrapped an *Error on its way up.
	{"ErrorWrapped2", fmt.Errorf("handler: %w", fmt.Errorf("service: %w", NotFound("Item 7 not found")))},
	// Nothing matches: every rule runs and the answer is InternalError.
	{"FallThrough", fmt.Errorf("render: %w", errors.New("template produced an empty document"))},
	// Matches the ninth common pattern, after every earlier one has failed.
	{"LatePattern", errors.New("the payment provider returned an upstream error")},
}

func BenchmarkCodeOf(b *testing.B) {
	for _, bc := range benchErrors {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkCode = CodeOf(bc.err)
			}
		})
	}
}

func BenchmarkFrom(b *testing.B) {
	for _, bc := range benchErrors {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkError = From(bc.err)
			}
		})
	}
}

// BenchmarkMatchPatterns compares three ways to find the first matching
// pattern: matchPatterns (needles first, the one in use), matchOrdered (every
// regexp in turn) and the alternation of all patterns as a pre-check before
// matchOrdered, an approach measured and rejected because Go runs a large
// case-insensitive alternation slower than the 30 regexps one by one.
func BenchmarkMatchPatterns(b *testing.B) {
	var alts []string
	for _, table := range [][]pattern{providerPatterns(), commonPatterns()} {
		for _, p := range table {
			alts = append(alts, "(?:"+strings.TrimPrefix(p.re.String(), "(?i)")+")")
		}
	}
	alternation := regexp.MustCompile("(?i)" + strings.Join(alts, "|"))
	withAlternation := func(msg string, names []string) (Code, bool) {
		hit := alternation.MatchString(msg)
		for _, n := range names {
			hit = hit || alternation.MatchString(n)
		}
		if !hit {
			return 0, false
		}
		return matchOrdered(msg, names)
	}

	inputs := []struct {
		name  string
		msg   string
		names []string
	}{
		{"Miss", "render: template produced an empty document", []string{"wrapError", "errorString"}},
		{"LateHit", "the payment provider returned an upstream error", []string{"errorString"}},
		{"EarlyHit", "ThrottlingException: slow down", []string{"errorString"}},
	}
	ways := []struct {
		name  string
		match func(string, []string) (Code, bool)
	}{
		{"needles", matchPatterns},
		{"regexps", matchOrdered},
		{"alternation", withAlternation},
	}
	for _, in := range inputs {
		for _, w := range ways {
			b.Run(in.name+"/"+w.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sinkCode, _ = w.match(in.msg, in.names)
				}
			})
		}
	}
}
