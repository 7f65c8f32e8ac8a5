package redact

import "strings"

// maxTag bounds how far back from a '>' the '<' that opens its tag is
// looked for: far more than a tag with a few attributes needs, and it keeps
// the scan linear.
const maxTag = 256

// xml handles the '>' at s[i] (n is 1), or its JSON escape \u003e (n is
// 6), that closes an XML start tag: when the element's name is sensitive
// (<Password>, <ClientSecret>, <ns:token type="bearer">), its text, up to
// the next '<', is judged as the value of that key. The look back stops at
// the previous '<' or '>', escaped or not, so each byte is read back once.
// It returns where the scan goes on.
func (sc *scanner) xml(i, n int) int {
	s := sc.s
	start := i + n
	k, ok := sc.tagStart(i)
	if !ok || k == i || s[i-1] == '/' {
		return start
	}
	name, ok := elementName(s, k, i)
	if !ok {
		return start
	}
	st := strengthOf(name)
	if st == notSecret {
		return start
	}
	a, b := trimBreaks(s, start, sc.nextTag(start))
	if a < b && s[a:b] != Marker && secretText(s[a:b], st) {
		sc.emit(a, b, false)
		return b
	}
	return start
}

// tagStart looks back from the '>' at s[i] for the '<' that opens its tag,
// or its JSON escape \u003c, and returns where the tag's name starts. It
// reports false when a '>' comes first, escaped or not, or when the look
// back reaches the last span or maxTag bytes.
func (sc *scanner) tagStart(i int) (int, bool) {
	s := sc.s
	for o := i - 1; o >= sc.lo && i-o <= maxTag; o-- {
		switch {
		case s[o] == '<':
			return o + 1, true
		case s[o] == '>':
			return 0, false
		case s[o] == '\\' && strings.HasPrefix(s[o:], `\u003c`):
			return o + len(`\u003c`), true
		case s[o] == '\\' && strings.HasPrefix(s[o:], `\u003e`):
			return 0, false
		}
	}
	return 0, false
}

// elementName returns the local name of the element whose start tag holds
// s[k:i] ("ns:token type=…" names token), and whether the name is one: not
// empty, and followed by the end of the tag or by a blank before its
// attributes.
func elementName(s string, k, i int) (string, bool) {
	e := k
	for e < i && isXMLName(s[e]) {
		e++
	}
	name := s[k:e]
	if c := strings.LastIndexByte(name, ':'); c >= 0 {
		name = name[c+1:]
	}
	if name == "" || e < i && !isBlank(s[e]) && s[e] != '\n' && s[e] != '\r' {
		return "", false
	}
	return name, true
}

// isXMLName reports whether c may be part of an element's name.
func isXMLName(c byte) bool {
	return isWordByte(c) || c == '.' || c == ':'
}

// nextTag returns where the next '<', or its JSON escape \u003c, is at or
// after s[i], or len(s). Each is looked for once, forward, and kept until
// the scan passes it.
func (sc *scanner) nextTag(i int) int {
	s := sc.s
	if i > sc.nextLT {
		sc.nextLT = len(s)
		if k := strings.IndexByte(s[i:], '<'); k >= 0 {
			sc.nextLT = i + k
		}
	}
	if i > sc.nextEscLT {
		sc.nextEscLT = len(s)
		if k := strings.Index(s[i:], `\u003c`); k >= 0 {
			sc.nextEscLT = i + k
		}
	}
	return min(sc.nextLT, sc.nextEscLT)
}
