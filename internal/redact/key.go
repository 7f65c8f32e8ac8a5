package redact

import (
	"unicode"
	"unicode/utf8"
)

// Marker replaces every secret this package removes: the value of a
// sensitive key, URL credentials, a bearer token, a token-shaped word.
const Marker = "[REDACTED]"

// sensitiveWords are the key names whose values are secrets: a key is
// sensitive when its normalised form or one of its words is in this set (see
// [Key]). All are lower-case ASCII, at most maxWordLen bytes long.
var sensitiveWords = map[string]bool{
	"password":      true,
	"token":         true,
	"secret":        true,
	"apikey":        true,
	"credential":    true,
	"jwt":           true,
	"ssn":           true,
	"cvv":           true,
	"authorization": true,
	"cookie":        true,
	"clientsecret":  true,
	"privatekey":    true,
}

// maxWordLen is the length of the longest sensitive word, "authorization":
// a longer normalised key or word cannot match, so the checks stop there and
// need no more than a small buffer on the stack.
const maxWordLen = 13

// wordsByLen holds the sensitive words by length. Comparing a candidate with
// the two or three words of its length is several times faster than hashing
// it for the map, and Key runs for every key of every log record.
var wordsByLen = func() (by [maxWordLen + 1][]string) {
	for w := range sensitiveWords {
		by[len(w)] = append(by[len(w)], w)
	}
	return by
}()

// isSensitiveWord reports whether b, lower-case already, is a sensitive word.
func isSensitiveWord(b []byte) bool {
	for _, w := range wordsByLen[len(b)] {
		if string(b) == w {
			return true
		}
	}
	return false
}

// Key reports whether a key (a map key, a log attribute, a query parameter,
// the left side of key=value) names a secret, following the rules of the
// TypeScript framework mcp-ts-core:
//
//	(a) the key lower-cased with every character other than a-z and 0-9
//	    removed is a sensitive word ("api_key", "Private-Key", "clientSecret");
//	(b) one of the key's words is a sensitive word ("session_token",
//	    "accessToken", "secretKey").
//
// The sensitive words are password, token, secret, apikey, credential, jwt,
// ssn, cvv, authorization, cookie, clientsecret and privatekey.
//
// Words are split at every character that is not a letter or a digit and at
// camel-case boundaries. Two deliberate widenings of mcp-ts-core's rules, which only
// splits at '_', '-' and white space and starts a word at every upper-case
// letter: any punctuation separates words ("auth.token"), and a run of
// capitals is one word ("userSSN" is user+ssn, "JWTValue" is jwt+value).
// Neither makes a key of its list of non-sensitive examples
// ("myApiKey", "x-api-key", "tokens", "passwd") sensitive.
//
// Key allocates nothing: the text scrubber calls it for every key it meets.
func Key(name string) bool {
	var buf [maxWordLen]byte
	n, fits := 0, true
	for _, r := range name {
		r = toLower(r)
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if n == len(buf) {
				fits = false
				break
			}
			buf[n] = byte(r)
			n++
		}
	}
	if fits && isSensitiveWord(buf[:n]) {
		return true
	}
	found := false
	eachWord(name, func(start, end int) bool {
		found = sensitiveWord(name[start:end])
		return !found
	})
	return found
}

// sensitiveWord reports whether w, lower-cased as strings.ToLower would, is a
// sensitive word.
func sensitiveWord(w string) bool {
	if len(w) > maxWordLen {
		return false // lower-casing never shortens an ASCII result
	}
	var buf [maxWordLen]byte
	n := 0
	for _, r := range w {
		r = toLower(r)
		if r >= utf8.RuneSelf || n == len(buf) {
			return false // every sensitive word is short and ASCII
		}
		buf[n] = byte(r)
		n++
	}
	return isSensitiveWord(buf[:n])
}

// toLower is unicode.ToLower with a fast path for ASCII.
func toLower(r rune) rune {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// The unicode predicates eachWord needs, with fast paths for ASCII.

func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z'
	}
	return unicode.IsLower(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9'
	}
	return unicode.IsDigit(r)
}

// eachWord calls f with the byte bounds of each word of key, in order, until
// f returns false. Words are runs of letters and digits, split further at
// camel-case boundaries: "accessToken" is access+Token, "HTTPServer" is
// HTTP+Server, "oauth2Token" is oauth2+Token. Bytes that are not UTF-8 count
// as U+FFFD, a separator.
func eachWord(key string, f func(start, end int) bool) {
	start := -1
	var prev rune
	for i := 0; i < len(key); {
		r, size := utf8.DecodeRuneInString(key[i:])
		switch {
		case !isAlnum(r):
			if start >= 0 && !f(start, i) {
				return
			}
			start = -1
		case start < 0:
			start = i
		case isUpper(r):
			nextLower := false
			if i+size < len(key) {
				next, _ := utf8.DecodeRuneInString(key[i+size:])
				nextLower = isLower(next)
			}
			// aB starts a word at B; 1B too; ABc starts one at B.
			if isLower(prev) || isDigit(prev) || isUpper(prev) && nextLower {
				if !f(start, i) {
					return
				}
				start = i
			}
		}
		prev = r
		i += size
	}
	if start >= 0 {
		f(start, len(key))
	}
}
