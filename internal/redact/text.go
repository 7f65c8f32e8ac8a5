package redact

import "strings"

// String returns s with its secret values replaced by [Marker]. It judges
// a value by its shape, not by the word before it: prose stays ("Invalid
// password: it must have at least 8 characters." is left alone) and
// credentials go.
//
//   - Tokens of a known format, wherever they stand: the prefixed API keys
//     and tokens of cloud providers (AKIA…, AIza…, ya29.…, dop_v1_…),
//     version control (ghp_…, github_pat_…, glpat-…), chat (xoxb-…,
//     xapp-…), package registries (npm_…, pypi-…, hf_…, rubygems_…),
//     payment and mail (sk_live_…, SG.…, key-…, SK…), AI services (sk-…,
//     sk-ant-…) and others; JWTs and other base64 JSON (eyJ…); Azure
//     client secrets, Discord and Telegram bot tokens, Mailchimp keys; and
//     any word of 32 bytes or more of base64 that mixes capitals,
//     lower-case letters and digits and is not made of words (an AWS
//     secret access key, an Azure account key).
//   - The body of a PEM private key block, from its "-----BEGIN … PRIVATE
//     KEY-----" line to its "-----END" line, or to the end of s when the
//     block is cut, its line breaks raw or escaped as \n in JSON text; the
//     BEGIN and END lines stay.
//   - The credentials of any URL (scheme://user:password@host), the value
//     of each query parameter whose name is sensitive (see [Key]),
//     percent-decoded, and the secret part of webhook URLs (Slack, Discord,
//     Microsoft Teams, Zapier, IFTTT, Telegram bots, and the token after
//     /hooks/ or /webhooks/).
//   - The credentials after an authorization scheme: "Bearer" (any word
//     that is not prose and looks like a token), "Basic" (base64), the
//     response of "Digest" (its nonce is not secret), and "Token", "Bot"
//     or "Negotiate" after an Authorization header; and every cookie value
//     of a Cookie header, the cookie's value in a Set-Cookie header.
//   - The value of a sensitive key, in the forms key=value, key: value,
//     key = value, key => value, "key": value, <key>value</key>, a YAML
//     key whose value is on the next, indented line, and the prose forms
//     "the password is hunter2" and "password Q7x…", when the value looks
//     like a credential. One word written right after the key, quoted or
//     not, is a credential unless it is a status ("expired", "none",
//     "required"), a placeholder ("<token>", "$API_KEY", "****"), a name
//     ("access_token") or a short number; after the key "key" alone,
//     which also names sort keys and primary keys, only a token-like word
//     is (eight bytes or more, not made of words, mixing kinds of bytes).
//     A quoted value of several words is a passphrase unless it reads as
//     prose (a sentence's punctuation, a function word, a number). An
//     unquoted value of several words is prose: its first word goes when
//     it mixes letters with digits or symbols ("password: hunter2
//     (expired)"), and any later word when it is token-like. A JSON
//     number goes as "[REDACTED]" in quotes, so JSON stays JSON; an object
//     goes whole; the elements of an array are judged one by one.
//
// Any Unicode spacing (U+00A0, U+2003, U+3000, …) counts as a blank and
// the full-width forms of ASCII (Ｐａｓｓｗｏｒｄ＝) as ASCII.
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
	// pathEnd is the end of the path of the URL the scan is in, which the
	// URLs nested in that path share.
	pathEnd int

	// The region is the rest of an unquoted value of several words after
	// a sensitive key ("password: it must … Q7x…"): each of its words from
	// regionNext on is judged by tokenLike as the scan reaches it.
	// proseEnd is the end of the last region computed: a region that
	// starts before it ends there too.
	regionEnd, regionNext, proseEnd int
	// longEnd is the end of the last run of base64 judged by longRandom,
	// so that no byte is judged twice.
	longEnd int
	// digestEnd is the end of the line of the last Digest scheme: a
	// response= pair before it holds credentials.
	digestEnd int
	// arrays counts the arrays under sensitive keys being judged, one
	// within an element of another.
	arrays int
	// nextLT and nextEscLT are where the next '<' and \u003c were found
	// (see nextTag); zero, before any tag's text can start, is unknown.
	nextLT, nextEscLT int
}

// maxKeyScan bounds how far left of a separator a key is looked for; no
// sensitive word is anywhere near as long, and the bound keeps the scan
// linear whatever the input.
const maxKeyScan = 128

// scrub returns s without its secrets; query says that s is a URL's raw
// query, whose parameters are judged from its first byte.
func scrub(s string, query bool) string {
	if folded, at, ok := fold(s); ok {
		// Unicode spacing or full-width forms: scan the folded text, and
		// replace the spans it finds in s itself.
		sc := scanner{s: folded}
		sc.scan(query)
		for k := range sc.spans {
			sc.spans[k].start, sc.spans[k].end = at[sc.spans[k].start], at[sc.spans[k].end]
		}
		sc.s = s
		return sc.render()
	}
	// spans stays nil until a secret is found: clean text allocates nothing.
	sc := scanner{s: s}
	sc.scan(query)
	return sc.render()
}

// scan finds the spans of sc.s.
func (sc *scanner) scan(query bool) {
	i := 0
	if query {
		sc.inURL, sc.inQuery, sc.urlEnd = true, true, urlEnd(sc.s, 0)
		i = sc.param(0)
	}
	sc.scanRange(i, len(sc.s))
}

// scanRange scans s[i:end] for spans, and returns where the scan stopped,
// at end or past it when a detector consumed more.
func (sc *scanner) scanRange(i, end int) int {
	s := sc.s
	for i < end {
		if sc.inURL && i >= sc.urlEnd {
			sc.inURL, sc.inQuery = false, false
		}
		if i < sc.regionEnd && i >= sc.regionNext && s[i] > ' ' {
			if e, done := sc.regionWord(i); done {
				i = e
				continue
			}
		}
		if sc.inURL {
			if e, ok := sc.queryByte(i); ok {
				i = e
				continue
			}
		}
		switch c := s[i]; {
		case isWordByte(c):
			i = sc.wordAt(i)
		case signBytes[c]:
			i = sc.sign(i)
		default:
			i++
		}
	}
	return i
}

// queryByte handles the byte s[i] of a URL when it structures the URL's
// query: '?' starts the query and '&' each of its parameters, whose values
// param judges; '#' ends it. It reports whether s[i] was one of them.
func (sc *scanner) queryByte(i int) (int, bool) {
	switch c := sc.s[i]; {
	case !sc.inQuery && c == '?':
		sc.inQuery = true
		return sc.param(i + 1), true
	case sc.inQuery && c == '&':
		return sc.param(i + 1), true
	case sc.inQuery && c == '#':
		sc.inQuery = false // the fragment is plain text again
		return i + 1, true
	}
	return 0, false
}

// signBytes holds the bytes sign may start something at.
var signBytes = *alphabetOf("[:=>\\")

// sign handles the punctuation at s[i] that may start something to judge:
// a marker of an earlier scrub, a URL's "://", the separator of a key and
// its value, the end of an XML tag. It returns where the scan goes on.
func (sc *scanner) sign(i int) int {
	s := sc.s
	switch c := s[i]; {
	case c == '[' && strings.HasPrefix(s[i:], Marker):
		return sc.pastMarker(i)
	case c == ':' && strings.HasPrefix(s[i+1:], "//"):
		return sc.url(i)
	case c == '=' || c == ':':
		return sc.keyValue(i)
	case c == '>':
		return sc.xml(i, 1)
	case c == '\\' && strings.HasPrefix(s[i:], `\u003e`):
		return sc.xml(i, len(`\u003e`))
	}
	return i + 1
}

// pastMarker passes the marker at s[i] that an earlier scrub wrote. It
// stands where a span was emitted then, and bounds what is read as a key
// as that span did, so that scrubbing again finds nothing new.
func (sc *scanner) pastMarker(i int) int {
	s := sc.s
	i += len(Marker)
	if i < len(s) && s[i] == '"' && i > len(Marker) && s[i-len(Marker)-1] == '"' {
		i++
	}
	sc.lo = max(sc.lo, i)
	return i
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
	if !quote && (withinMarker(sc.s, start, end) || onlyMarkers(sc.s[start:end])) {
		return
	}
	if start < sc.regionEnd && !sc.wholeWord(start, end) {
		// Only a whole word of the region leaves the rest of it to judge:
		// scrubbing again stops the region at a marker within a word.
		sc.regionEnd = start
	}
	sc.spans = append(sc.spans, span{start, end, quote})
}

// withinMarker reports whether s[start:end] lies within a [Marker] that
// an earlier scrub wrote: judged again, a part of it ("[REDACTED" after
// an opening bracket) must not become a marker of its own, or scrubbing
// twice would not give what scrubbing once did.
func withinMarker(s string, start, end int) bool {
	for m := start; m >= 0 && m > start-len(Marker); m-- {
		if strings.HasPrefix(s[m:], Marker) {
			return end <= m+len(Marker)
		}
	}
	return false
}

// onlyMarkers reports whether s is nothing but markers an earlier scrub
// wrote, and the spaces between them: there is nothing left to hide, and
// replacing them with one marker would make scrubbing twice differ from
// scrubbing once.
func onlyMarkers(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for s != "" {
		rest, ok := strings.CutPrefix(s, Marker)
		if !ok {
			return false
		}
		s = strings.TrimLeft(rest, " \t\r\n")
	}
	return true
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
func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes is the set isWordByte looks bytes up in: every byte of the
// text is tested, and a lookup costs less than the comparisons.
var wordBytes = *alphabetOf(upperSet, lowerSet, digitSet, "_-")

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

// skipBlanks returns the index of the first byte at or after s[k] that is
// not a blank, or len(s).
func skipBlanks(s string, k int) int {
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	return k
}
