package mcperr

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"sync"
	"unicode/utf8"
)

// The pattern tables of mcp-ts-core (the TypeScript framework whose
// classification mcperr keeps), translated to RE2.
//
// Each pattern is a case-insensitive substring search.
// Two JavaScript features have no RE2 twin and are spelled out instead:
//
//   - JavaScript's \s also matches \v, U+FEFF and every Unicode space and
//     line separator, while RE2's \s is ASCII only; jsSpace is the exact set.
//   - JavaScript's . stops at \r, U+2028 and U+2029 as well as \n; jsDot
//     does too.
//
// One difference remains: (?i) in RE2 folds case by Unicode rules, so "ſ"
// matches "s" and the Kelvin sign matches "k", which JavaScript's non-Unicode
// /i does not. No real message relies on either.
const (
	jsSpace = `[\s\v\p{Z}\x{FEFF}]`
	jsDot   = `[^\n\r\x{2028}\x{2029}]`
)

// A pattern maps a regular expression, matched against an error's message
// and the type names of its chain, to a code.
type pattern struct {
	re   *regexp.Regexp
	code Code
	// needles are what a string must contain, once folded by foldASCII, for
	// re to match it: one of them at least. nil means re requires nothing
	// that literals can express. Go's regexp takes most of a microsecond to
	// run a case-insensitive pattern over a short message, so trying the 30
	// patterns on an error that matches none costs tens of microseconds;
	// the needles rule out a pattern in nanoseconds, and an exact needle
	// makes the regexp unnecessary. BenchmarkMatchPatterns has the figures.
	needles []needle
}

// A needle is a lower-case ASCII literal. When exact, a string contains it
// exactly when re matches through this alternative; otherwise re must still
// be run to confirm. grams are its bigrams, hashed as in bigramSet: a string
// that lacks one of them cannot contain the needle, which rules most needles
// out before any substring search.
type needle struct {
	lit   []byte
	exact bool
	grams []uint16
}

// A bigramSet records which pairs of adjacent bytes, hashed to 10 bits, occur
// in a string. It is a filter: a pair may share its bit with others.
type bigramSet [1024 / 64]uint64

func bigram(a, b byte) uint16 { return (uint16(a)<<5 ^ uint16(b)) & 1023 }

func (s *bigramSet) add(b []byte) {
	for i := 1; i < len(b); i++ {
		g := bigram(b[i-1], b[i])
		s[g>>6] |= 1 << (g & 63)
	}
}

func (s *bigramSet) has(g uint16) bool { return s[g>>6]&(1<<(g&63)) != 0 }

// The pattern tables are compiled on the first classification that needs
// them, not at start: their regular expressions are some 80 KB of heap that
// a server whose errors are all *Error never uses, and that every garbage
// collection would scan.
var tables = sync.OnceValue(func() [2][]pattern {
	return [2][]pattern{compilePatterns(providerTable), compilePatterns(commonTable)}
})

// providerPatterns recognise the messages of cloud SDKs, HTTP clients,
// databases and LLM APIs. They run before the common patterns because they are
// more specific: "getaddrinfo ENOTFOUND" must not read as "not found".
func providerPatterns() []pattern { return tables()[0] }

// commonPatterns recognise the wording of everyday failures (commonTable).
func commonPatterns() []pattern { return tables()[1] }

// providerTable are the rows of providerPatterns.
var providerTable = []rawPattern{
	{`ThrottlingException|TooManyRequestsException`, CodeRateLimited},
	{`AccessDenied|UnauthorizedOperation`, CodeForbidden},
	{`ResourceNotFoundException`, CodeNotFound},
	{`status code 401`, CodeUnauthorized},
	{`status code 403`, CodeForbidden},
	{`status code 404`, CodeNotFound},
	{`status code 409`, CodeConflict},
	{`status code 429`, CodeRateLimited},
	{`status code 5\d\d`, CodeServiceUnavailable},
	{`ECONNREFUSED|connection refused`, CodeServiceUnavailable},
	{`ETIMEDOUT|connection timeout`, CodeTimeout},
	{`unique constraint|duplicate key`, CodeConflict},
	{`foreign key constraint`, CodeValidationError},
	{`JWT expired`, CodeUnauthorized},
	{`row level security`, CodeForbidden},
	{`insufficient_quota|quota exceeded`, CodeRateLimited},
	{`model_not_found`, CodeNotFound},
	{`context_length_exceeded`, CodeValidationError},
	{`ENOTFOUND|DNS`, CodeServiceUnavailable},
	{`ECONNRESET|connection reset`, CodeServiceUnavailable},
}

// commonTable recognise the wording of everyday failures. Order matters:
// "invalid token" is Unauthorized only because row 1 precedes row 4.
var commonTable = []rawPattern{
	{`unauthorized|unauthenticated|not` + jsSpace + `+authorized|not` + jsDot + `*logged` + jsDot + `*in|` +
		`invalid[\s\v\p{Z}\x{FEFF}_-]+token|expired[\s\v\p{Z}\x{FEFF}_-]+token`, CodeUnauthorized},
	{`permission|forbidden|access` + jsDot + `*denied|not` + jsDot + `*allowed`, CodeForbidden},
	{`not found|no such|doesn't exist|couldn't find`, CodeNotFound},
	{`invalid|validation|malformed|bad request|wrong format|missing` + jsSpace +
		`+(?:required|param|field|input|value|arg)`, CodeValidationError},
	{`conflict|already exists|duplicate|unique constraint`, CodeConflict},
	{`rate limit|too many requests|throttled`, CodeRateLimited},
	{`timeout|timed out|deadline exceeded`, CodeTimeout},
	{`abort(?:ed)?|cancell?ed`, CodeTimeout},
	{`service unavailable|bad gateway|gateway timeout|upstream error`, CodeServiceUnavailable},
	{`zod|zoderror|schema validation`, CodeValidationError},
}

// A rawPattern is a row of a pattern table before compilation.
type rawPattern struct {
	expr string
	code Code
}

func compilePatterns(rows []rawPattern) []pattern {
	out := make([]pattern, len(rows))
	for i, r := range rows {
		expr := `(?i)` + r.expr
		tree, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			panic("mcperr: pattern " + expr + ": " + err.Error())
		}
		p := pattern{re: regexp.MustCompile(expr), code: r.code}
		if lits, ok := literalsOf(tree); ok {
			for _, l := range lits {
				n := needle{lit: []byte(l.s), exact: l.exact}
				for j := 1; j < len(l.s); j++ {
					n.grams = append(n.grams, bigram(l.s[j-1], l.s[j]))
				}
				p.needles = append(p.needles, n)
			}
		}
		out[i] = p
	}
	return out
}

// A literal is a needle under construction.
type literal struct {
	s     string
	exact bool
}

// maxProduct bounds the literals a concatenation may expand to.
const maxProduct = 16

// literalsOf returns non-empty literals, lower-cased, one of which every
// match of re contains, marking those whose presence alone proves a match;
// false when it finds none. It understands the shapes the pattern tables use
// (literals, concatenations, alternations, groups, optional and repeated
// parts); anything else yields false, which costs speed, not correctness.
func literalsOf(re *syntax.Regexp) ([]literal, bool) {
	lits, ok := literals(re)
	if !ok {
		return nil, false
	}
	for _, l := range lits {
		if l.s == "" {
			return nil, false // re may match without any literal
		}
	}
	return lits, true
}

func literals(re *syntax.Regexp) ([]literal, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return literalOf(re.Rune)
	case syntax.OpEmptyMatch:
		return []literal{{"", true}}, true
	case syntax.OpCapture:
		return literals(re.Sub[0])
	case syntax.OpQuest:
		if sub, ok := literals(re.Sub[0]); ok && allExact(sub) {
			return append(sub, literal{"", true}), true
		}
	case syntax.OpPlus:
		return inexact(literals(re.Sub[0]))
	case syntax.OpRepeat:
		if re.Min > 0 {
			return inexact(literals(re.Sub[0]))
		}
	case syntax.OpConcat:
		if product, ok := concatProduct(re.Sub); ok {
			return product, true
		}
		return inexact(mostSelective(re.Sub))
	case syntax.OpAlternate:
		return alternateLiterals(re.Sub)
	}
	return nil, false
}

// literalOf returns the literal of an OpLiteral's runes, lower-cased.
func literalOf(runes []rune) ([]literal, bool) {
	// Parse stores a case-folded literal as the smallest rune of each
	// fold orbit ('K' for k), so lower-case it back.
	b := make([]byte, 0, len(runes))
	for _, r := range runes {
		if r >= utf8.RuneSelf {
			return nil, false // only ASCII folds as foldASCII does
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b = append(b, byte(r))
	}
	return []literal{{string(b), true}}, true
}

// concatProduct returns the literals of a concatenation when every part
// is exact and the product small: the product is exact then, "no" then
// "t found" or " such" is "not found" or "no such".
func concatProduct(subs []*syntax.Regexp) ([]literal, bool) {
	product := []literal{{"", true}}
	for _, sub := range subs {
		l, ok := literals(sub)
		if !ok || !allExact(l) || len(product)*len(l) > maxProduct {
			return nil, false
		}
		var next []literal
		for _, a := range product {
			for _, b := range l {
				next = append(next, literal{a.s + b.s, true})
			}
		}
		product = next
	}
	return product, product != nil
}

// mostSelective returns the literals of the part of a concatenation whose
// shortest literal is longest: every part is in every match, so any will
// do, and that one is the most selective. ok is false when no part has
// literals.
func mostSelective(subs []*syntax.Regexp) ([]literal, bool) {
	var best []literal
	for _, sub := range subs {
		if l, ok := literals(sub); ok && shortest(l) > 0 && (best == nil || shortest(l) > shortest(best)) {
			best = l
		}
	}
	return best, best != nil
}

// alternateLiterals returns the literals of an alternation: those of all
// its branches, when each has some.
func alternateLiterals(subs []*syntax.Regexp) ([]literal, bool) {
	var all []literal
	for _, sub := range subs {
		l, ok := literals(sub)
		if !ok {
			return nil, false
		}
		all = append(all, l...)
	}
	return all, true
}

func allExact(lits []literal) bool {
	for _, l := range lits {
		if !l.exact {
			return false
		}
	}
	return true
}

func inexact(lits []literal, ok bool) ([]literal, bool) {
	if !ok {
		return nil, false
	}
	out := make([]literal, len(lits))
	for i, l := range lits {
		out[i] = literal{l.s, false}
	}
	return out, true
}

func shortest(lits []literal) int {
	m := len(lits[0].s)
	for _, l := range lits[1:] {
		m = min(m, len(l.s))
	}
	return m
}

// find returns the first of p's needles that folded, the foldASCII form of
// a string whose bigrams are in set, contains, or nil. When p has no needles
// it returns an inexact stand-in, so that the caller runs the regexp.
func (p *pattern) find(folded []byte, set *bigramSet) *needle {
	if p.needles == nil {
		return &noNeedle
	}
next:
	for i := range p.needles {
		n := &p.needles[i]
		for _, g := range n.grams {
			if !set.has(g) {
				continue next
			}
		}
		if bytes.Contains(folded, n.lit) {
			return n
		}
	}
	return nil
}

var noNeedle needle

// foldASCII appends s to dst with ASCII letters lower-cased. Under the
// Unicode case folding of (?i), the only non-ASCII runes equivalent to an
// ASCII character are U+017F (ſ, s) and U+212A (Kelvin sign, k): they become
// s and k. Every other byte is copied, so an ASCII needle occurs in the result
// exactly where s matches it case-insensitively.
func foldASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == 0xC5 && i+1 < len(s) && s[i+1] == 0xBF: // U+017F
			c = 's'
			i++
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x84 && s[i+2] == 0xAA: // U+212A
			c = 'k'
			i += 2
		}
		dst = append(dst, c)
	}
	return dst
}

// matchPatterns returns the code of the first pattern, providers before
// common ones, that matches msg or one of names; for each pattern the message
// is tried before the names. ok is false when nothing
// matches. It gives the answer of matchOrdered, much faster.
func matchPatterns(msg string, names []string) (code Code, ok bool) {
	var buf [512]byte
	folded := foldASCII(buf[:0], msg)
	msgEnd := len(folded)
	for _, n := range names {
		// NUL is in no needle, so no needle spans two names.
		folded = foldASCII(append(folded, 0), n)
	}
	foldedMsg, foldedNames := folded[:msgEnd], folded[msgEnd:]
	var msgSet, namesSet bigramSet
	msgSet.add(foldedMsg)
	namesSet.add(foldedNames)
	for _, table := range tables() {
		for i := range table {
			p := &table[i]
			if n := p.find(foldedMsg, &msgSet); n != nil && (n.exact || p.re.MatchString(msg)) {
				return p.code, true
			}
			if len(names) == 0 {
				continue
			}
			n := p.find(foldedNames, &namesSet)
			if n == nil {
				continue
			}
			if n.exact {
				return p.code, true // NUL is in no needle: one name holds it
			}
			for _, name := range names {
				if p.re.MatchString(name) {
					return p.code, true
				}
			}
		}
	}
	return 0, false
}

// matchOrdered is the plain form of matchPatterns: every regexp in order,
// against the message and then each name. It is the reference the tests and
// the fuzz target hold matchPatterns to.
func matchOrdered(msg string, names []string) (code Code, ok bool) {
	for _, table := range tables() {
		for _, p := range table {
			if p.re.MatchString(msg) {
				return p.code, true
			}
			for _, n := range names {
				if p.re.MatchString(n) {
					return p.code, true
				}
			}
		}
	}
	return 0, false
}
