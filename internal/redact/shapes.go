package redact

import "strings"

// wordAt handles the run of word bytes that starts at s[i]: a token of a
// known format or a long random run of base64 is emitted whole; after an
// authorization scheme ("Bearer") the credentials are; after a key named in
// prose ("the password is hunter2", "with password Q7x…") the value is when
// it looks like a credential. It returns the end of what it consumed.
// Every word of the text comes here, so the tests that rule a shape out
// are cheap and come before the calls that judge it.
func (sc *scanner) wordAt(i int) int {
	s := sc.s
	j := wordEnd(s, i)
	if endsWithPEMBegin(s, i, j) {
		// "-----BEGIN" ends the word, perhaps after the n of an escaped
		// line break (\n-----BEGIN in JSON text).
		if e, ok := sc.pem(j - len(pemBeginWord)); ok {
			return e
		}
	}
	if i > 0 && isWordByte(s[i-1]) {
		return j // inside a word: shapes only start at a word's start
	}
	// "\nghp_…", "\nBearer …" in JSON text: the word starts after the
	// escape.
	if i = afterEscape(s, i, j); i == j {
		return j
	}
	if e, ok := tokenAt(s, i); ok {
		sc.emit(i, e, false)
		return e
	}
	if sc.mayRunLong(i, j) {
		if e, ok := sc.longRun(i); ok {
			return e
		}
	}
	if mayNameScheme(s[i:j]) {
		if e, ok := sc.schemeWord(i, j); ok {
			return e
		}
	}
	if k := skipBlanks(s, j); valueAfterBlanks(s, j, k) && proseKey(s[i:j]) {
		return sc.proseValue(i, j)
	}
	return j
}

// endsWithPEMBegin reports whether the word s[i:j] ends with the dashes
// and BEGIN of a PEM block's first line.
func endsWithPEMBegin(s string, i, j int) bool {
	n := len(pemBeginWord)
	return j-i >= n && s[j-1] == 'N' && s[j-n:j] == pemBeginWord
}

// mayRunLong reports whether the word s[i:j] may start a run of base64
// that longRun has not judged yet: one as long as a key must be, or one
// that goes on past the word.
func (sc *scanner) mayRunLong(i, j int) bool {
	s := sc.s
	return i >= sc.longEnd && (j-i >= 32 || j < len(s) && (s[j] == '+' || s[j] == '/'))
}

// longRun judges the run of base64 that starts at s[i]: it is emitted
// when longRandom finds it a credential. The end of the run is kept, so
// that no byte of it is judged twice.
func (sc *scanner) longRun(i int) (int, bool) {
	s := sc.s
	e := i
	for e < len(s) && base64any[s[e]] {
		e++
	}
	for e < len(s) && e > i && s[e] == '=' {
		e++ // padding; an '=' within is a pair's
	}
	sc.longEnd = e
	if e-i >= 32 && longRandom(s[i:e]) {
		sc.emit(i, e, false)
		return e, true
	}
	return 0, false
}

// mayNameScheme is a quick test that w may be one of the authorization
// schemes schemeWord handles: Bearer, Basic or Digest.
func mayNameScheme(w string) bool {
	n := len(w)
	return (n == 5 || n == 6) && (w[0]|0x20 == 'b' || w[0]|0x20 == 'd')
}

// schemeWord handles the word s[i:j] when it is an authorization scheme:
// the credentials after "Bearer" or "Basic" are judged; after "Digest",
// its response= pair is. It reports whether the word was one, and where
// the scan goes on.
func (sc *scanner) schemeWord(i, j int) (int, bool) {
	w := sc.s[i:j]
	switch {
	case strings.EqualFold(w, "bearer") || strings.EqualFold(w, "basic"):
		return sc.credentials(i, j), true
	case strings.EqualFold(w, "digest"):
		sc.digest(j)
		return j, true
	}
	return 0, false
}

// valueAfterBlanks reports whether the blanks s[j:k] after a word are
// followed by a value rather than a separator: "password: …" is
// keyValue's.
func valueAfterBlanks(s string, j, k int) bool {
	return k > j && k < len(s) && s[k] != ':' && s[k] != '='
}

// base64any holds the bytes of base64 and base64url text, padding aside.
var base64any = alphabetOf(upperSet, lowerSet, digitSet, "+/-_")

// proseKey is a quick test that w may be a sensitive key named in prose: it
// ends with one of the nouns that name a secret ("password",
// "access_token", "API_KEY"). Key decides.
func proseKey(w string) bool {
	if len(w) < 3 || len(w) > maxKeyScan {
		return false
	}
	var nouns []string
	switch w[len(w)-1] | 0x20 {
	case 'd':
		nouns = nounsD
	case 'n':
		nouns = nounsN
	case 't':
		nouns = nounsT
	case 'y':
		nouns = nounsY
	case 'e':
		nouns = nounsE
	case 'l':
		nouns = nounsL
	default:
		return false
	}
	for _, n := range nouns {
		if len(w) >= len(n) && hasSuffixFold(w, n) {
			return Key(w)
		}
	}
	return false
}

// The nouns that name a secret in prose, by their last letter.
var (
	nounsD = []string{"pwd", "passwd", "password"}
	nounsN = []string{"token"}
	nounsT = []string{"secret"}
	nounsY = []string{"key"}
	nounsE = []string{"cookie", "passphrase"}
	nounsL = []string{"credential"}
)

// proseValue handles a sensitive key named in prose, s[i:j], followed by
// blanks and a value, perhaps after "is" or "was": "the password is
// hunter2", "login with password hunter2". The word is a credential when it
// is token-like, or, after a strong key, when it mixes letters with digits
// or symbols; after "is", a quoted value is judged as the value of the key.
// A key followed by its separator is left to keyValue.
func (sc *scanner) proseValue(i, j int) int {
	s := sc.s
	k := skipBlanks(s, j)
	if k == j || k == len(s) {
		return j
	}
	st := strengthOf(s[i:j])
	if st == weakKey {
		st = sc.strengthBefore(s[i:j], i)
	}
	k, is, ok := afterCopula(s, k)
	if !ok {
		return j
	}
	if c := s[k]; c == '"' || c == '\'' || c == '`' {
		if !is {
			return j
		}
		return sc.quotedProse(k, j, st)
	}
	return sc.proseWord(k, j, st)
}

// afterCopula passes "is" or "was" at s[k] and the blanks after it ("the
// password is hunter2"): it returns where the value starts, whether the
// copula was there, and false when no value follows it.
func afterCopula(s string, k int) (v int, is, ok bool) {
	w := wordEnd(s, k)
	if !isCopula(s[k:w]) {
		return k, false, true
	}
	v = skipBlanks(s, w)
	if v == w || v == len(s) {
		return 0, false, false
	}
	return v, true, true
}

// isCopula reports whether w is "is" or "was", in any case.
func isCopula(w string) bool {
	return len(w) == 2 && strings.EqualFold(w, "is") || len(w) == 3 && strings.EqualFold(w, "was")
}

// quotedProse judges the quoted value at s[k], after a key named in prose
// and "is", as the value of a key of strength st. It returns where the
// scan goes on, j when the value stays.
func (sc *scanner) quotedProse(k, j int, st strength) int {
	s := sc.s
	e := strings.IndexByte(s[k+1:min(len(s), k+1+maxKeyScan)], s[k])
	if e < 0 {
		return j
	}
	if secretText(s[k+1:k+1+e], st) {
		sc.emit(k+1, k+1+e, false)
		return k + 2 + e
	}
	return j
}

// proseWord judges the word at s[k] after a key named in prose: it is a
// credential when it is token-like, or, after a strong key, when it mixes
// letters with digits or symbols. It returns where the scan goes on, j
// when the word stays.
func (sc *scanner) proseWord(k, j int, st strength) int {
	s := sc.s
	e, embedded := valueWordEnd(s, k)
	if e == k || embedded {
		return j
	}
	a, b := trimmedWord(s, k, e)
	if b-a == len(Marker) && s[a:b] == Marker {
		sc.lo = max(sc.lo, b)
		return e
	}
	w := s[k:e]
	if tokenLike(w) || st == strongKey && firstWordSecret(w) {
		sc.emit(a, b, false)
		return e
	}
	return j
}

// wordEnd returns the end of the run of word bytes that starts at s[k].
func wordEnd(s string, k int) int {
	for k < len(s) && isWordByte(s[k]) {
		k++
	}
	return k
}
