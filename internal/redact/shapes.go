package redact

import "strings"

// word handles the run of word bytes that starts at s[i]: a token-shaped
// word is emitted whole, and after an authorization scheme ("Bearer") the
// credentials are. It returns the end of what it consumed.
func (sc *scanner) word(i int) int {
	s := sc.s
	j := i
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	if n := len(pemBegin) - 1; j-i >= n && s[j-1] == 'N' && s[j-n:j] == pemBegin[:n] {
		// "-----BEGIN" ends the word, perhaps after the n of an escaped
		// line break (\n-----BEGIN in JSON text).
		if e, ok := sc.pem(j - n); ok {
			return e
		}
	}
	if i > 0 && s[i-1] == '\\' {
		// "\nghp_…", "\nBearer …" in JSON text: the word starts after
		// the escape.
		if i = afterEscape(s, i, j); i == j {
			return j
		}
	} else if i > 0 && isWordByte(s[i-1]) {
		return j // inside a word: shapes only start at a word's start
	}
	if e, ok := tokenEnd(s, i, j); ok {
		sc.emit(i, e, false)
		return e
	}
	if strings.EqualFold(s[i:j], "bearer") || strings.EqualFold(s[i:j], "basic") {
		return sc.credentials(i, j)
	}
	return j
}

// A tokenPrefix is the start of a kind of API key that is secret wherever
// it appears. min is the least number of word bytes after the prefix, so
// that words like "sk-learn" are not taken for keys.
type tokenPrefix struct {
	prefix string
	min    int
	// check, when set, must also approve the bytes after the prefix.
	check func(tail string) bool
}

// tokenPrefixes are the well-known key prefixes of widely used APIs.
var tokenPrefixes = []tokenPrefix{
	// OpenAI, Anthropic and others: long, with a digit or a capital, so
	// that a hyphenated word after "sk" is not one.
	{"sk-", 16, hasDigitOrUpper},
	// Stripe.
	{"sk_live_", 8, nil}, {"sk_test_", 8, nil}, {"rk_live_", 8, nil}, {"rk_test_", 8, nil},
	// GitHub.
	{"ghp_", 8, nil}, {"gho_", 8, nil}, {"ghs_", 8, nil}, {"ghu_", 8, nil}, {"ghr_", 8, nil},
	{"github_pat_", 8, nil},
	// GitLab.
	{"glpat-", 8, nil},
	// Slack.
	{"xoxa-", 8, nil}, {"xoxb-", 8, nil}, {"xoxp-", 8, nil}, {"xoxr-", 8, nil}, {"xoxs-", 8, nil},
	// AWS access key ids: 16 capitals or digits.
	{"AKIA", 16, upperDigits16}, {"ASIA", 16, upperDigits16},
	// Google API keys.
	{"AIza", 30, nil},
}

// tokenEnd reports whether the word s[i:j] is token-shaped, and where the
// token ends: a JWT takes its dot-separated segments with it.
func tokenEnd(s string, i, j int) (int, bool) {
	w := s[i:j]
	switch w[0] {
	case 'e':
		// A JWT (header.payload.signature, or a cut one) or other base64
		// JSON (`{"` encodes as eyJ); no word starts so. The length is
		// checked before the segments are taken, so that a run of short
		// "eyJ." words is not read again and again.
		if !strings.HasPrefix(w, "eyJ") || len(w) < 10 {
			return 0, false
		}
		// Take the segments after it, across empty ones ("a..b") too, but
		// not a sentence's final dot.
		e := j
		for e < len(s) && s[e] == '.' {
			k := e
			for k < len(s) && s[k] == '.' {
				k++
			}
			if k == len(s) || !isWordByte(s[k]) {
				break
			}
			for e = k; e < len(s) && isWordByte(s[e]); e++ {
			}
		}
		return e, true
	case 's', 'r', 'g', 'x', 'A':
		for _, p := range tokenPrefixes {
			if tail, ok := strings.CutPrefix(w, p.prefix); ok && len(tail) >= p.min && (p.check == nil || p.check(tail)) {
				return j, true
			}
		}
	}
	return 0, false
}

func hasDigitOrUpper(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' })
}

func upperDigits16(s string) bool {
	return !strings.ContainsFunc(s[:16], func(r rune) bool { return (r < '0' || r > '9') && (r < 'A' || r > 'Z') })
}

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
	e := k
	for e < len(s) && isToken68Byte(s[e]) {
		e++
	}
	for e < len(s) && e > k && s[e] == '=' {
		e++ // base64 padding
	}
	if e == k || !looksLikeCredentials(s[i:j], s[k:e]) {
		return j
	}
	sc.emit(k, e, false)
	return e
}

// isToken68Byte reports whether c may appear in the credentials of an
// authorization scheme (RFC 9110 token68, padding aside).
func isToken68Byte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '~' || c == '+' || c == '/'
}

// proseWords follow "bearer" or "basic" in error messages ("missing bearer
// token", "basic auth failed", "Bearer realm=…"); credentials are never
// these words.
var proseWords = []string{
	"a", "an", "and", "auth", "authentication", "authorisation", "authorization",
	"credential", "credentials", "error", "expired", "for", "from", "header", "headers",
	"in", "invalid", "is", "missing", "not", "of", "or", "realm", "required", "scheme",
	"the", "to", "token", "tokens", "type", "was", "with",
}

// looksLikeCredentials reports whether tok, after the scheme, is
// credentials rather than prose. After "Bearer" anything but a prose word
// is; after "Basic", a common English word, only base64 of eight bytes or
// more with a digit, '+', '/', '=' or a capital after the first letter is.
func looksLikeCredentials(scheme, tok string) bool {
	base := strings.TrimRight(tok, "=")
	for _, w := range proseWords {
		if strings.EqualFold(base, w) {
			return false
		}
	}
	if !strings.EqualFold(scheme, "basic") {
		return true
	}
	return len(tok) >= 8 && (strings.ContainsAny(tok, "0123456789+/=") || hasDigitOrUpper(tok[1:]))
}
