package redact

import "strings"

// This file handles the credentials of authorization schemes (Bearer,
// Basic, Digest) and of cookies.

// credentials handles the authorization scheme s[i:j], "Bearer" or
// "Basic": the token after the blanks that follow it is emitted when it
// looks like credentials. It returns the end of what it consumed.
func (sc *scanner) credentials(i, j int) int {
	s := sc.s
	k := j
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	if k == j {
		return j
	}
	e := credentialsEnd(s, k)
	if e == k || e < len(s) && isWordByte(s[e]) || !looksLikeCredentials(s[i:j], s[k:e]) {
		return j // "bearer expires_in=3600": a pair, not credentials
	}
	sc.emit(k, e, false)
	return e
}

// credentialsEnd returns the end of the credentials of an authorization
// scheme that start at s[k]: token68 bytes, then base64 padding.
func credentialsEnd(s string, k int) int {
	e := k
	for e < len(s) && isToken68Byte(s[e]) {
		e++
	}
	for e < len(s) && e > k && s[e] == '=' {
		e++ // base64 padding
	}
	return e
}

// isToken68Byte reports whether c may appear in the credentials of an
// authorization scheme (RFC 9110 token68, padding aside).
func isToken68Byte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '~' || c == '+' || c == '/'
}

// schemeProse are words that follow "bearer" or "basic" in error messages
// ("missing bearer token", "basic auth failed", "Bearer realm=…");
// credentials are never these words.
var schemeProse = setOf(
	"a", "an", "and", "auth", "authentication", "authorisation", "authorization",
	"credential", "credentials", "error", "expired", "for", "from", "header", "headers",
	"in", "invalid", "is", "missing", "not", "of", "or", "realm", "required", "scheme",
	"the", "to", "token", "tokens", "type", "was", "with",
)

// isSchemeProse reports whether w, in any case, is one of schemeProse.
func isSchemeProse(w string) bool {
	var buf [len("authentication")]byte
	if len(w) > len(buf) {
		return false
	}
	for i := 0; i < len(w); i++ {
		buf[i] = w[i] | 0x20
	}
	_, ok := schemeProse[string(buf[:len(w)])]
	return ok
}

// looksLikeCredentials reports whether tok, after the scheme, is
// credentials rather than prose: not a word of prose, and, after "Bearer",
// a token (a digit, a capital after the first letter, punctuation, or 20
// bytes); after "Basic", base64 of eight bytes or more with a digit, '+',
// '/', '=' or a capital after the first letter.
func looksLikeCredentials(scheme, tok string) bool {
	base := tok
	for len(base) > 0 && (base[len(base)-1] == '=' || base[len(base)-1] == '.') {
		base = base[:len(base)-1]
	}
	if base == "" || isSchemeProse(base) || plainWord(base) && base != Marker {
		return false
	}
	if !strings.EqualFold(scheme, "basic") {
		return len(base) >= 20 || hasDigitOrUpper(base[1:]) || strings.ContainsAny(base, "._~+/-")
	}
	return len(tok) >= 8 && (strings.ContainsAny(tok, "0123456789+/=") || hasDigitOrUpper(tok[1:]))
}

// isScheme reports whether a value is an HTTP authorization scheme whose
// credentials follow it after a blank.
func isScheme(w string) bool {
	for _, scheme := range []string{"bearer", "basic", "token", "bot", "digest", "negotiate"} {
		if strings.EqualFold(w, scheme) {
			return true
		}
	}
	return false
}

// scheme handles the value of an Authorization header, s[v:e] being its
// scheme: the scheme and its credentials go together ("Authorization:
// [REDACTED]"); Digest credentials are judged pair by pair (its response is
// secret, its nonce is not). What follows is judged as the later words of
// a value of several words. It returns where the scan goes on.
func (sc *scanner) scheme(v, e int, spaced bool) int {
	s := sc.s
	if strings.EqualFold(s[v:e], "digest") {
		sc.digest(e)
		return e
	}
	k := e
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	t := bareEnd(s, k)
	if t > k && looksLikeCredentials(s[v:e], s[k:t]) {
		sc.emit(v, t, false)
	} else {
		t = e
	}
	if next, more := nextValueWord(s, t); spaced && more {
		sc.region(next, t)
	}
	return t
}

// maxDigestLine bounds how far the pairs of a Digest authorization are
// looked for after the scheme.
const maxDigestLine = 4096

// digest notes a Digest scheme that ends at s[j]: a response= pair before
// the end of its line holds its credentials. The end is read once for a
// line that holds several.
func (sc *scanner) digest(j int) {
	s := sc.s
	if j < sc.digestEnd {
		return
	}
	e := j
	for e < len(s) && e-j < maxDigestLine && s[e] != '\n' && s[e] != '\r' && !escapedBreak(s, e) {
		e++
	}
	sc.digestEnd = e
}

// isCookieHeader reports whether a key is the Cookie or Set-Cookie header.
func isCookieHeader(key string) bool {
	return strings.EqualFold(key, "cookie") || strings.EqualFold(key, "set-cookie")
}

// cookies handles the value of a Cookie header (every cookie's value is
// emitted: "Cookie: sid=[REDACTED]; theme=[REDACTED]") or of a Set-Cookie
// header (set: the cookie's value is, its attributes stay), which starts
// at s[v] with a name=value pair. It returns the end of the header's line.
func (sc *scanner) cookies(v int, set bool) int {
	s := sc.s
	i := v
	for first := true; i < len(s); first = false {
		i = sc.cookie(i, first || !set)
		if i == len(s) || s[i] != ';' {
			break
		}
		i = skipBlanks(s, i+1)
	}
	return i
}

// cookie handles the pair, or the attribute, that starts at s[i] in a
// cookie header: a pair's value is emitted when emit says so. It returns
// where the pair ends.
func (sc *scanner) cookie(i int, emit bool) int {
	s := sc.s
	n := i
	for n < len(s) && s[n] != '=' && s[n] != ';' && !endsCookie(s, n) {
		n++
	}
	if n == len(s) || s[n] != '=' {
		return n
	}
	e := n + 1
	for e < len(s) && s[e] != ';' && s[e] != ',' && !endsCookie(s, e) {
		e++
	}
	if emit {
		sc.emit(n+1, e, false)
	}
	return e
}

// endsCookie reports whether s[i] ends a cookie header's pair: a blank, a
// control character, a quote or a line break escaped in JSON text.
func endsCookie(s string, i int) bool {
	c := s[i]
	return c <= ' ' || c == '"' || c == '\'' || c == 0x7f || escapedBreak(s, i)
}
