package redact

import "strings"

// String returns s with its secrets replaced by [Marker]:
//
//   - the value of a sensitive key (see [Key]) in the forms key=value,
//     key: value, key:value, key = value, "key": "value" and "key": 123 (a
//     bare JSON value is replaced by "[REDACTED]" in quotes, so JSON stays
//     JSON). A quoted value ends at its closing quote; one that opens with
//     '{' or '[' at the matching bracket. A bare value written right after
//     the separator (password=x, token:x) is one word: it ends at white
//     space, '&', ',', ';', a quote, '}', ']', ')' or a colon before a
//     blank ("password=x: refused"), so "token=abc next=1" keeps next=1.
//     A bare value written after a blank (password = x, password: x), as
//     prose, headers and configuration files write one, is all the words
//     that follow, to the end of the line: "password = correct horse
//     battery" loses all three. It ends where a one-word value would, but
//     not at a blank: at a line break (raw, or \n and \r as JSON escapes
//     them), '&', ',', ';', a quote, a closing bracket, a colon before a
//     blank, or the blanks before the next key=value ("password = a b
//     user=ann" keeps user=ann). A value that names an authorization scheme
//     ("Authorization: Bearer abc") is that word and the one after it, the
//     credentials, spaced or not;
//   - the credentials of any URL (scheme://user:password@host), and the value
//     of each query parameter whose name is sensitive, percent-decoded
//     (?api_key=…, ?access%5Ftoken=…, ?key=…, ?sig=…, the X-Amz-Signature,
//     X-Amz-Credential and X-Amz-Security-Token of a presigned URL);
//   - the credentials after "Bearer" and "Basic", in any case, unless they are
//     a plain word such as "token" ("invalid bearer token" stays); after
//     "Basic", only base64-looking credentials;
//   - the body of a PEM private key block, from its "-----BEGIN … PRIVATE
//     KEY-----" line to its "-----END" line, or to the end of s when the
//     block is cut, its line breaks raw or escaped as \n in JSON text; the
//     BEGIN and END lines stay, so the reader sees what was there;
//   - token-shaped words wherever they stand: JWTs and other base64 JSON
//     (eyJ…), and API keys by their well-known prefixes (sk-…, sk_live_…,
//     ghp_…, github_pat_…, glpat-…, xoxb-…, AKIA…, AIza…).
//
// The secrets the process keeps (see [Keep]) are masked first, by [Mask]:
// a pattern that matches inside one must not cut it in two and leave the
// rest in clear.
//
// A value that is already [Marker] stays as it is, so String is idempotent.
// It runs in time linear in len(s), returns s itself, without allocating,
// when there is nothing to replace, and never panics: should a bug of this
// package panic, the whole of s is replaced by [Marker].
func String(s string) (out string) {
	defer func() {
		if recover() != nil {
			out = Marker // fail closed
		}
	}()
	return scrub(Mask(s), false)
}

// A span is a part of the input to replace by Marker.
type span struct {
	start, end int
	// quote asks for "[REDACTED]" in double quotes: the span was a bare JSON
	// value (a number, a literal, an object) under a quoted key.
	quote bool
}

// A scanner finds the spans of one input, left to right. Every detector
// starts at the scan position and returns a position after it, and spans
// are emitted in order without overlap, so the input is read a bounded
// number of times: the scan is linear.
type scanner struct {
	s     string
	spans []span
	// lo is the end of the last span: a key is never read from inside one.
	lo int
	// urlEnd is the end of the URL the scan is in (or was last in); it is
	// the first URL terminator after the URL's "://", so a URL nested in
	// another shares it and it is computed once.
	urlEnd  int
	inURL   bool
	inQuery bool
}

// maxKeyScan bounds how far left of a separator a key is looked for; no
// sensitive word is anywhere near as long, and the bound keeps the scan
// linear whatever the input.
const maxKeyScan = 128

// scrub returns s without its secrets; query says that s is a URL's raw
// query, whose parameters are judged from its first byte.
func scrub(s string, query bool) string {
	// spans stays nil until a secret is found: clean text allocates nothing.
	sc := scanner{s: s}
	i := 0
	if query {
		sc.inURL, sc.inQuery, sc.urlEnd = true, true, urlEnd(s, 0)
		i = sc.param(0)
	}
	for i < len(s) {
		if sc.inURL && i >= sc.urlEnd {
			sc.inURL, sc.inQuery = false, false
		}
		c := s[i]
		switch {
		case sc.inURL && !sc.inQuery && c == '?':
			sc.inQuery = true
			i = sc.param(i + 1)
		case sc.inQuery && c == '&':
			i = sc.param(i + 1)
		case sc.inQuery && c == '#':
			sc.inQuery = false // the fragment is plain text again
			i++
		case c == '[' && strings.HasPrefix(s[i:], Marker):
			// A marker of an earlier scrub stands where a span was
			// emitted then; it bounds what is read as a key as that span
			// did, so that scrubbing again finds nothing new.
			i += len(Marker)
			if i < len(s) && s[i] == '"' && i > len(Marker) && s[i-len(Marker)-1] == '"' {
				i++
			}
			sc.lo = max(sc.lo, i)
		case c == ':' && strings.HasPrefix(s[i+1:], "//"):
			i = sc.url(i)
		case c == '=' || c == ':':
			i = sc.keyValue(i)
		case isWordByte(c):
			i = sc.word(i)
		default:
			i++
		}
	}
	return sc.render()
}

// emit records s[start:end] for replacement, unless it is empty or already
// the marker.
func (sc *scanner) emit(start, end int, quote bool) {
	start = max(start, sc.lo) // never overlap the previous span
	if end <= start {
		return
	}
	if sc.inURL && start < sc.urlEnd && end > sc.urlEnd {
		// A quoted value may run past the URL's end; cut it there, so that
		// scrubbing the output again sees the same URL.
		end = sc.urlEnd
	}
	sc.lo = end
	if !quote && sc.s[start:end] == Marker {
		return
	}
	sc.spans = append(sc.spans, span{start, end, quote})
}

// render returns the input with every span replaced.
func (sc *scanner) render() string {
	if len(sc.spans) == 0 {
		return sc.s
	}
	var b strings.Builder
	b.Grow(len(sc.s) + len(sc.spans)*(len(Marker)+2))
	last := 0
	for _, sp := range sc.spans {
		b.WriteString(sc.s[last:sp.start])
		if sp.quote {
			b.WriteString(`"` + Marker + `"`)
		} else {
			b.WriteString(Marker)
		}
		last = sp.end
	}
	b.WriteString(sc.s[last:])
	return b.String()
}

// isWordByte reports whether c belongs to a word as token shapes count
// them: ASCII letters, digits, '_' and '-'.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// isKeyByte reports whether c may be part of an unquoted key: word bytes,
// the punctuation of dotted, bracketed and percent-encoded names, and the
// bytes of non-ASCII letters.
func isKeyByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '%' || c == '+' || c == '[' || c == ']' || c >= 0x80
}

// endsValue reports whether c ends a bare value: white space and control
// characters, the separators of lists and queries, quotes and closing
// brackets.
func endsValue(c byte) bool {
	switch c {
	case '&', ',', ';', '"', '\'', '}', ']', ')', 0x7f:
		return true
	}
	return c <= ' '
}

// endsURL reports whether c ends a URL in text: white space and control
// characters, quotes, angle brackets and backslashes, none of which a URL
// holds unescaped.
func endsURL(c byte) bool {
	switch c {
	case '"', '\'', '<', '>', '`', '\\', 0x7f:
		return true
	}
	return c <= ' '
}

// urlEnd returns the index of the first URL terminator in s at or after i,
// or len(s).
func urlEnd(s string, i int) int {
	for i < len(s) && !endsURL(s[i]) {
		i++
	}
	return i
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }
