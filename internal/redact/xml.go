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
	o, open := i-1, 0
	for o >= sc.lo && i-o <= maxTag {
		if c := s[o]; c == '<' || c == '>' {
			open = 1
			if c == '>' {
				open = -1
			}
			break
		}
		if s[o] == '\\' && strings.HasPrefix(s[o:], `\u003c`) {
			open = len(`\u003c`)
			break
		}
		if s[o] == '\\' && strings.HasPrefix(s[o:], `\u003e`) {
			break
		}
		o--
	}
	if open <= 0 || o+open == i || s[i-1] == '/' {
		return i + n
	}
	k := o + open
	for k < i && isXMLName(s[k]) {
		k++
	}
	name := s[o+open : k]
	if c := strings.LastIndexByte(name, ':'); c >= 0 {
		name = name[c+1:] // the local name
	}
	if name == "" || k < i && !isBlank(s[k]) && s[k] != '\n' && s[k] != '\r' {
		return i + n
	}
	st := strengthOf(name)
	if st == notSecret {
		return i + n
	}
	start := i + n
	a, b := trimBreaks(s, start, sc.nextTag(start))
	if a < b && s[a:b] != Marker && secretText(s[a:b], st) {
		sc.emit(a, b, false)
		return b
	}
	return start
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
