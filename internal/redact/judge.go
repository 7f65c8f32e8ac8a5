package redact

import "strings"

// This file judges the value of a sensitive key in text: quoted, bare,
// an object or an array.

// value judges the value of a key of strength st that starts at s[v], emits
// it when it is a credential, and returns where the scan goes on. jsonKey
// says the key was a quoted JSON key, so that a bare value is replaced by
// a quoted marker; spaced, that blanks stand between the separator and the
// value, which makes an unquoted value of several words prose.
func (sc *scanner) value(v int, st strength, jsonKey, spaced, numeric bool) int {
	s := sc.s
	if v >= len(s) {
		return v
	}
	if strings.HasPrefix(s[v:], Marker) {
		return sc.markedValue(v, spaced)
	}
	if e, ok := sc.delimitedValue(v, st, jsonKey, numeric); ok {
		return e
	}
	if spaced && startsPair(s, v) {
		return v // "password= user=ann": an empty value, then a pair
	}
	e := bareEnd(s, v)
	if e == v {
		return v
	}
	return sc.bareValue(v, e, st, jsonKey, spaced, numeric)
}

// markedValue passes the marker at s[v] that an earlier scrub left: what
// follows a marker that stands for a first word is judged as it was the
// first time.
func (sc *scanner) markedValue(v int, spaced bool) int {
	s := sc.s
	e := v + len(Marker)
	sc.lo = max(sc.lo, e)
	if w, embedded := valueWordEnd(s, v); spaced && !embedded {
		if next, more := nextValueWord(s, w); more {
			sc.region(next, w)
		}
	}
	return e
}

// delimitedValue judges a value that opens with a delimiter at s[v]: a
// quote, an escaped quote, a brace or a bracket. It reports whether there
// was one, and where the scan goes on.
func (sc *scanner) delimitedValue(v int, st strength, jsonKey, numeric bool) (int, bool) {
	switch sc.s[v] {
	case '"', '\'':
		return sc.quotedValue(v, st), true
	case '\\':
		return sc.escapedValue(v, st)
	case '{':
		return sc.structuredValue(v, st, jsonKey), true
	case '[':
		return sc.array(v, st, jsonKey, numeric), true
	}
	return 0, false
}

// quotedValue judges the quoted value at s[v] by secretText.
func (sc *scanner) quotedValue(v int, st strength) int {
	s := sc.s
	e := quotedEnd(s, v)
	if secretText(s[v+1:e], st) {
		sc.emit(v+1, e, false)
		return min(e+1, len(s))
	}
	return v + 1 // prose: scan it for other secrets
}

// quotedEnd returns the end of the string quoted by s[open], ' or ": its
// closing quote, past \-escapes in a double-quoted one; or, when the quote
// is not closed on its line, the line's end, so that an unmatched quote
// does not swallow the lines after it and what they say ("Authorization:
// Digest" before its response=).
func quotedEnd(s string, open int) int {
	c := s[open]
	e := open + 1
	for e < len(s) && s[e] != c && s[e] != '\n' {
		if s[e] == '\\' && c == '"' {
			e++ // an escaped character, perhaps the quote
		}
		e++
	}
	return min(e, len(s))
}

// escapedValue judges a JSON string escaped inside another, once
// (\"value\") or more (\\\"value\\\"), by secretText. It reports
// whether s[v] starts one.
func (sc *scanner) escapedValue(v int, st strength) (int, bool) {
	start, end, after, ok := escapedString(sc.s, v)
	if !ok {
		return 0, false
	}
	if secretText(sc.s[start:end], st) {
		sc.emit(start, end, false)
		return after, true
	}
	return start, true
}

// structuredValue judges the object or array at s[v] as a whole. Under a
// strong key it is a structured credential: it goes whole, and an unclosed
// one runs to the end. Under a weaker key its own keys say what is secret,
// so the scan goes on inside it.
func (sc *scanner) structuredValue(v int, st strength, jsonKey bool) int {
	if st != strongKey {
		return v + 1
	}
	e := closing(sc.s, v)
	sc.emit(v, e, jsonKey)
	return e
}

// bareValue judges the unquoted value s[v:e]: a URL with a scheme by its
// parts, a JSON literal after a JSON key by literalSecret, one word by
// secretAfterKey. Several words are prose, but for a first word that mixes
// letters with digits or symbols, and any later word that is token-like.
func (sc *scanner) bareValue(v, e int, st strength, jsonKey, spaced, numeric bool) int {
	s := sc.s
	w := s[v:e]
	if isScheme(w) {
		return sc.scheme(v, e, spaced)
	}
	if jsonKey && isJSONLiteral(w) {
		// A number goes quoted, so that JSON stays JSON.
		if literalSecret(w, st) {
			sc.emit(v, e, true)
		}
		return e
	}
	next, more := nextValueWord(s, e)
	if !spaced || !more {
		if secretAfterKey(w, st, numeric) {
			sc.emitTrimmed(v, e)
		}
		return e
	}
	if st == strongKey && firstWordSecret(w) || st == weakKey && tokenLike(w) {
		sc.emitTrimmed(v, e)
	}
	sc.region(next, e)
	return e
}

// emitTrimmed emits the word s[v:e] without the punctuation that ends a
// sentence or wraps a word.
func (sc *scanner) emitTrimmed(v, e int) {
	a, b := trimmedWord(sc.s, v, e)
	sc.emit(a, b, false)
}

// literalSecret reports whether w, a JSON literal that isJSONLiteral has
// passed and the value of a key of strength st, is a secret: a number under
// a strong key is; true, false and null never are.
func literalSecret(w string, st strength) bool {
	return st == strongKey && w[0] != 't' && w[0] != 'f' && w[0] != 'n'
}

// isJSONLiteral reports whether w is a JSON number, true, false or null.
func isJSONLiteral(w string) bool {
	switch w {
	case "true", "false", "null":
		return true
	}
	if w[0] == '-' {
		w = w[1:]
	}
	if w == "" || w[0] < '0' || w[0] > '9' {
		return false
	}
	return strings.Trim(w, "0123456789.eE+-") == ""
}

// escapedString returns the bounds of a JSON string escaped inside
// another, which starts at s[v] with a run of backslashes and a quote, and
// the position after its closing run.
func escapedString(s string, v int) (start, end, after int, ok bool) {
	b := v
	for b < len(s) && s[b] == '\\' {
		b++
	}
	if b == len(s) || s[b] != '"' {
		return 0, 0, 0, false
	}
	closer := s[v : b+1]
	for e := b + 1; ; {
		k := strings.Index(s[e:], closer)
		if k < 0 {
			return b + 1, len(s), len(s), true
		}
		if e+k > b+1 && s[e+k-1] == '\\' {
			e += k + 1 // an escaped backslash run, inside the value
			continue
		}
		return b + 1, e + k, e + k + len(closer), true
	}
}

// maxArrayDepth bounds how deeply arrays under sensitive keys, within the
// elements of others, are judged element by element; deeper ones go whole
// under a strong key, and are scanned as text under the weak one.
const maxArrayDepth = 8

// array judges the elements of the array that starts at s[v], the value of
// a key of strength st, one by one, as the value of the key: a string by
// secretText, a number under a strong key, an object as the value of the
// key is. An element that stays is scanned as text, for the secrets it may
// hold. It returns the end of the array, or of s when it is not closed.
func (sc *scanner) array(v int, st strength, jsonKey, numeric bool) int {
	if sc.arrays >= maxArrayDepth {
		return sc.structuredValue(v, st, jsonKey)
	}
	sc.arrays++
	defer func() { sc.arrays-- }()
	s := sc.s
	i := v + 1
	for i < len(s) {
		for i < len(s) && (s[i] <= ' ' || s[i] == ',') {
			i++
		}
		if i == len(s) || sc.inURL && i >= sc.urlEnd {
			return i // the end, or of the URL the array began in
		}
		if s[i] == ']' {
			return i + 1
		}
		after, last := sc.element(i, st, jsonKey, numeric)
		if last {
			return after
		}
		i = max(after, sc.lo)
	}
	return i
}

// element judges the element of an array that starts at s[i], as array
// says, and returns where it ends; last when it ends the array, as a
// closing brace or a line break ends a cut one.
func (sc *scanner) element(i int, st strength, jsonKey, numeric bool) (after int, last bool) {
	s := sc.s
	var start, end int
	secret, quote := false, false
	switch s[i] {
	case '"', '\'':
		e := quotedEnd(s, i)
		start, end, after = i+1, e, min(e+1, len(s))
		secret = secretText(s[start:end], st)
	case '{':
		start, end = i, closing(s, i)
		after = end
		secret, quote = st == strongKey, jsonKey
	case '[':
		return sc.array(i, st, jsonKey, numeric), false
	default:
		e := elementEnd(s, i)
		if e == i {
			return e, true
		}
		w := strings.TrimRight(s[i:e], " \t\r")
		start, end, after = i, i+len(w), e
		if isJSONLiteral(w) {
			secret, quote = literalSecret(w, st), jsonKey
		} else {
			secret = secretText(w, st)
		}
	}
	if secret {
		sc.emit(start, end, quote)
	} else {
		sc.scanRange(start, end)
	}
	return after, false
}

// elementEnd returns the end of the unquoted array element at s[i:]: the
// next comma, closing bracket or brace, or line break. A [Marker] an
// earlier scrub wrote is one word of the element, its bracket no closing
// one, so that scrubbing twice gives what scrubbing once did.
func elementEnd(s string, i int) int {
	e := i
	for e < len(s) && s[e] != ',' && s[e] != '}' && !escapedBreak(s, e) && s[e] != '\n' {
		if s[e] == '[' && strings.HasPrefix(s[e:], Marker) {
			e += len(Marker)
			continue
		}
		if s[e] == ']' {
			break
		}
		e++
	}
	return e
}
