package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marker replaces every secret this package removes: the value of a
// sensitive key, URL credentials, a bearer token, a token-shaped word.
const Marker = "[REDACTED]"

// A class says what a word does for the sensitivity of a key it is part of
// (see [Key]). A word may have several.
type class uint8

const (
	// anyWord: the key is sensitive wherever the word stands in it
	// ("password", "db_password", "passwordHash").
	anyWord class = 1 << iota
	// lastWord: the key is sensitive when the word ends it ("db_pass",
	// "smtpPass"), not when another word follows ("pass_rate").
	lastWord
	// wholeKey: the key is sensitive when the word is all of it ("key",
	// "KEY"), not otherwise ("sort_key", "keyboard").
	wholeKey
	// keyQualifier: a following "key" or "keys" makes the key sensitive
	// ("x-api-key", "myApiKey", "apiKeyId", "ssh_private_key").
	keyQualifier
	// keyNoun is "key" or "keys".
	keyNoun
	// tokensQualifier: a following "tokens" makes the key sensitive
	// ("access_tokens"), where "tokens" alone is a count ("max_tokens").
	tokensQualifier
	// tokensNoun is "tokens".
	tokensNoun
)

// wordClasses are the words that matter to [Key], with their classes. All
// are lower-case ASCII, at most maxWordLen bytes long.
var wordClasses = map[string]class{
	"password":      anyWord,
	"passwd":        anyWord,
	"passphrase":    anyWord,
	"pwd":           anyWord,
	"token":         anyWord,
	"secret":        anyWord,
	"apikey":        anyWord,
	"credential":    anyWord,
	"jwt":           anyWord,
	"ssn":           anyWord,
	"cvv":           anyWord,
	"authorization": anyWord,
	"cookie":        anyWord,
	"clientsecret":  anyWord,
	"privatekey":    anyWord,
	"signature":     anyWord,
	"sig":           anyWord,

	"pass": lastWord,
	"key":  wholeKey | keyNoun,
	"keys": keyNoun,

	"api":        keyQualifier | tokensQualifier,
	"access":     keyQualifier | tokensQualifier,
	"session":    keyQualifier | tokensQualifier,
	"private":    keyQualifier,
	"signing":    keyQualifier,
	"encryption": keyQualifier,
	"master":     keyQualifier,
	"hmac":       keyQualifier,
	"ssh":        keyQualifier,
	"account":    keyQualifier,

	"tokens":  tokensNoun,
	"refresh": tokensQualifier,
	"auth":    tokensQualifier,
	"bearer":  tokensQualifier,
	"id":      tokensQualifier,
	"oauth":   tokensQualifier,
	"csrf":    tokensQualifier,
	"xsrf":    tokensQualifier,
}

// maxWordLen is the length of the longest word of wordClasses,
// "authorization": a longer normalised key or word cannot match, so the
// checks stop there and need no more than a small buffer on the stack.
const maxWordLen = 13

// A classed word is an entry of wordClasses.
type classed struct {
	word  string
	class class
}

// wordsByLen holds the words of wordClasses by length. Comparing a
// candidate with the few words of its length is several times faster than
// hashing it for the map, and Key runs for every key of every log record.
var wordsByLen = func() (by [maxWordLen + 1][]classed) {
	for w, c := range wordClasses {
		by[len(w)] = append(by[len(w)], classed{w, c})
	}
	return by
}()

// classOf returns the class of b, lower-case already: 0 for a word that
// does not matter.
func classOf(b []byte) class {
	if len(b) == 0 {
		return 0
	}
	for _, w := range wordsByLen[len(b)] {
		// The first byte tells most candidates apart without a call
		// to compare the rest.
		if w.word[0] == b[0] && string(b[1:]) == w.word[1:] {
			return w.class
		}
	}
	return 0
}

// Key reports whether a key (a map key, a log attribute, a query parameter,
// a header name, the left side of key=value) names a secret. Its words are
// split at every character that is not a letter or a digit and at
// camel-case boundaries, a run of capitals being one word ("x-api-key" is
// x+api+key, "myApiKey" is my+Api+Key, "JWTValue" is JWT+Value), and
// compared without regard to case. The key is sensitive when
//
//	(a) the key lower-cased with every character other than a-z and 0-9
//	    removed is one of the words of (b), pass or key ("api_key",
//	    "Private-Key", "clientSecret", "KEY");
//	(b) one of its words is password, passwd, passphrase, pwd, token,
//	    secret, apikey, credential, jwt, ssn, cvv, authorization, cookie,
//	    clientsecret, privatekey, signature or sig ("session_token",
//	    "X-Amz-Signature", "db_pwd"), or ends with password, passwd,
//	    passphrase, token, secret or apikey ("PGPASSWORD", "sslpassword",
//	    "accesstoken");
//	(c) its last word is pass ("pass", "db_pass", but not "pass_rate");
//	(d) it is the single word key ("key", "?key=", but not "sort_key",
//	    "keyboard" or "monkey");
//	(e) key or keys follows api, access, session, private, signing,
//	    encryption, master, hmac, ssh or account ("x-api-key", "myApiKey",
//	    "apiKeyId", "ssh_private_key", "AWSAccessKeyId", "AccountKey");
//	(f) tokens follows api, access, session, refresh, auth, bearer, id,
//	    oauth, csrf or xsrf ("access_tokens"); "tokens" alone, as in
//	    "max_tokens" and "tokens=3", is a count;
//
// unless, by (b) to (f), the key has several words and the last is one that
// names something about a secret rather than the secret: type, kind, count,
// length, size, ttl, age, expiry, expires, expiration, lifetime, at, in,
// url, uri, endpoint, path, file, name, policy, format, prefix, header,
// version, status, state, strength, mode, method, scheme, rotation, min,
// max, days, hours, minutes, seconds, enabled, disabled or required
// ("token_type", "password_min_length", "cookie_name", "token_url",
// "access_token_expires_at").
//
// Rules (a) and (b) with the words password to privatekey are those of the
// TypeScript framework mcp-ts-core, which splits words at '_', '-' and
// white space only and leaves "myApiKey", "x-api-key" and "passwd" in
// clear; the rest widen them to the names a Go user meets in headers,
// presigned URLs and configuration. A word that merely starts with or
// contains one of these is not sensitive ("secretary", "passwordless",
// "keyboard", "bypass", "tokenizer"), nor is a plural other than keys and
// tokens ("credentials").
//
// Letters are compared without regard to case or width: the full-width
// "Ｐａｓｓｗｏｒｄ" is "password".
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
	if fits && classOf(buf[:n])&(anyWord|lastWord|wholeKey) != 0 {
		return true // the letters and digits joined ("API-Key" is apikey)
	}
	found := false
	var prev class
	eachWord(name, func(start, end int) bool {
		c := wordClassOf(name[start:end])
		found = sensitiveWord(name[start:end], c, prev)
		prev = c
		return !found
	})
	return (found || prev&lastWord != 0) && !endsWithMetaWord(name)
}

// sensitiveWord reports whether w, a word of a key of class c after a word
// of class prev, makes the key sensitive: by itself, as the noun of a
// qualifier before it ("private key", "access tokens"), or by its suffix.
func sensitiveWord(w string, c, prev class) bool {
	return c&anyWord != 0 ||
		c&keyNoun != 0 && prev&keyQualifier != 0 ||
		c&tokensNoun != 0 && prev&tokensQualifier != 0 ||
		hasSensitiveSuffix(w)
}

// wordClassOf returns the class of w, lower-cased as strings.ToLower would
// and folded from full width.
func wordClassOf(w string) class {
	if len(w) > maxWordLen && (len(w) > 3*maxWordLen || !strings.ContainsFunc(w, isFullWidth)) {
		return 0 // too long, unless in full-width forms, three bytes each
	}
	var buf [maxWordLen]byte
	n := 0
	for _, r := range w {
		r = toLower(r)
		if r >= utf8.RuneSelf || n == len(buf) {
			return 0 // every word that matters is short and ASCII
		}
		buf[n] = byte(r)
		n++
	}
	return classOf(buf[:n])
}

// The suffixes of the words that are sensitive whatever precedes them in
// the word: names written in one lower-case run, as environment variables,
// connection strings and query parameters often are ("PGPASSWORD",
// "sslpassword", "accesstoken", "myapikey"). No English word ends so but
// "betoken". They are grouped by their last letter, which picks the group
// to try.
var (
	suffixesD = []string{"password", "passwd"}
	suffixesE = []string{"passphrase"}
	suffixesN = []string{"token"}
	suffixesT = []string{"secret"}
	suffixesY = []string{"apikey"}
)

// hasSensitiveSuffix reports whether w, lower-cased as strings.ToLower
// would, is longer than a sensitive suffix and ends with it. (A word that
// is the suffix itself has its class already.)
func hasSensitiveSuffix(w string) bool {
	if len(w) <= len("token") {
		return false
	}
	var suffixes []string
	// c|0x20 lower-cases an ASCII letter and maps no other byte to one; a
	// last rune beyond ASCII lower-cases to none of these letters, but a
	// full-width one.
	last := rune(w[len(w)-1] | 0x20)
	if w[len(w)-1] >= utf8.RuneSelf {
		r, _ := utf8.DecodeLastRuneInString(w)
		last = toLower(r)
	}
	switch last {
	case 'd':
		suffixes = suffixesD
	case 'e':
		suffixes = suffixesE
	case 'n':
		suffixes = suffixesN
	case 't':
		suffixes = suffixesT
	case 'y':
		suffixes = suffixesY
	default:
		return false
	}
	for _, suf := range suffixes {
		if hasSuffixFold(w, suf) {
			return true
		}
	}
	return false
}

// hasSuffixFold reports whether w, lower-cased rune by rune, ends with
// suf, which is lower-case ASCII letters.
func hasSuffixFold(w, suf string) bool {
	i := len(suf)
	for i > 0 && len(w) > 0 {
		if c := w[len(w)-1]; c < utf8.RuneSelf {
			if c|0x20 != suf[i-1] {
				return false
			}
			w = w[:len(w)-1]
		} else {
			r, size := utf8.DecodeLastRuneInString(w)
			if toLower(r) != rune(suf[i-1]) {
				return false
			}
			w = w[:len(w)-size]
		}
		i--
	}
	return i == 0
}

func isFullWidth(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }

// toLower is unicode.ToLower with a fast path for ASCII, which also folds
// the full-width forms of ASCII (U+FF01 to U+FF5E) to ASCII.
func toLower(r rune) rune {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return foldLower(r)
}

// foldLower is toLower beyond ASCII, kept out of toLower so that it
// inlines.
func foldLower(r rune) rune {
	if r >= 0xFF01 && r <= 0xFF5E {
		r -= 0xFF01 - '!'
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
