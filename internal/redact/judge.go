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
		// Already scrubbed; what follows a marker that stands for a
		// first word is judged as it was the first time.
		e := v + len(Marker)
		sc.lo = max(sc.lo, e)
		if w, embedded := valueWordEnd(s, v); spaced && !embedded {
			if next, more := nextValueWord(s, w); more {
				sc.region(next, w)
			}
		}
		return e
	}
	switch c := s[v]; {
	case c == '"' || c == '\'':
		e := quotedEnd(s, v)
		if secretText(s[v+1:e], st) {
			sc.emit(v+1, e, false)
			return min(e+1, len(s))
		}
		return v + 1 // prose: scan it for other secrets
	case c == '\\':
		// A JSON string escaped inside another, once (\"value\") or more
		// (\\\"value\\\"): it ends at the same run of backslashes and a
		// quote, not preceded by one more backslash.
		if start, end, after, ok := escapedString(s, v); ok {
			if secretText(s[start:end], st) {
				sc.emit(start, end, false)
				return after
			}
			return start
		}
	case c == '{':
		if st != strongKey {
			return v + 1 // "key": {…}: its own keys say what is secret
		}
		// An object under a strong key is a structured credential: it
		// goes whole; an unclosed one runs to the end.
		e := closing(s, v)
		sc.emit(v, e, jsonKey)
		return e
	case c == '[':
		return sc.array(v, st, jsonKey, numeric)
	}
	if spaced && startsPair(s, v) {
		return v // "password= user=ann": an empty value, then a pair
	}
	e := bareEnd(s, v)
	if e == v {
		return v
	}
	if isScheme(s[v:e]) {
		return sc.scheme(v, e, spaced)
	}
	if jsonKey && isJSONLiteral(s[v:e]) {
		// A bare JSON value: a number goes, quoted so that JSON stays
		// JSON; true, false and null stay.
		if st == strongKey && s[v] != 't' && s[v] != 'f' && s[v] != 'n' {
			sc.emit(v, e, true)
		}
		return e
	}
	next, more := nextValueWord(s, e)
	if !spaced || !more {
		if secretAfterKey(s[v:e], st, numeric) {
			a, b := trimmedWord(s, v, e)
			sc.emit(a, b, false)
		}
		return e
	}
	// Several words: prose, but for a first word that mixes letters with
	// digits or symbols, and any later word that is token-like.
	if st == strongKey && firstWordSecret(s[v:e]) || st == weakKey && tokenLike(s[v:e]) {
		a, b := trimmedWord(s, v, e)
		sc.emit(a, b, false)
	}
	sc.region(next, e)
	return e
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
	s := sc.s
	if sc.arrays >= maxArrayDepth {
		if st != strongKey {
			return v + 1
		}
		e := closing(s, v)
		sc.emit(v, e, jsonKey)
		return e
	}
	sc.arrays++
	defer func() { sc.arrays-- }()
	i := v + 1
	for i < len(s) {
		for i < len(s) && (s[i] <= ' ' || s[i] == ',') {
			i++
		}
		if i == len(s) || sc.inURL && i >= sc.urlEnd {
			return i // the end, or of the URL the array began in
		}
		start, end, after := i, i, i
		secret, quote := false, false
		switch c := s[i]; {
		case c == ']':
			return i + 1
		case c == '"' || c == '\'':
			e := quotedEnd(s, i)
			start, end, after = i+1, e, min(e+1, len(s))
			secret = secretText(s[start:end], st)
		case c == '{':
			end = closing(s, i)
			after = end
			secret, quote = st == strongKey, jsonKey
		case c == '[':
			after = sc.array(i, st, jsonKey, numeric)
			i = max(after, sc.lo)
			continue
		default:
			e := elementEnd(s, i)
			if e == i {
				return e // a closing brace or a line break ends a cut array
			}
			w := strings.TrimRight(s[i:e], " \t\r")
			end, after = i+len(w), e
			if isJSONLiteral(w) {
				secret = st == strongKey && w != "true" && w != "false" && w != "null"
				quote = jsonKey
			} else {
				secret = secretText(w, st)
			}
		}
		if secret {
			sc.emit(start, end, quote)
		} else {
			sc.scanRange(start, end)
		}
		i = max(after, sc.lo)
	}
	return i
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
