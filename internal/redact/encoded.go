package redact

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// Encoded returns the JSON text src redacted by the rules of [Tree],
// without decoding it into a tree first: the value of an object member
// whose key [Key] finds sensitive becomes "[REDACTED]" when it is a
// credential (see [Tree]), every other string and every key at any depth
// goes through [String] (a key that held a secret takes the value
// "[REDACTED]"), and numbers, literals and the order of members are copied
// as they are, minus insignificant whitespace. It is what [JSON] and a new encoding give for
// JSON text, for a fraction of the work: a failure's data is encoded once
// and scrubbed once on its way to the wire.
//
// find, when not empty, names object keys from the top down; found is the
// string at that path as it is sent (scrubbed), or "" when there is none.
//
// It returns an error when src is not valid JSON.
func Encoded(src []byte, find ...string) (out []byte, found string, err error) {
	if !json.Valid(src) {
		return nil, "", errors.New("redact: not a JSON value")
	}
	e := encoded{src: src, out: make([]byte, 0, len(src)+len(Marker)), find: find}
	e.value(0, len(find) > 0)
	return e.out, e.found, nil
}

// encoded is the state of one Encoded: src is valid JSON, so the walk
// needs no error paths.
type encoded struct {
	src   []byte
	i     int
	out   []byte
	find  []string
	found string
}

// value copies the value at e.i, redacted. onPath says that the keys that
// lead to it are find[:depth].
func (e *encoded) value(depth int, onPath bool) {
	e.space()
	switch e.src[e.i] {
	case '{':
		e.object(depth, onPath)
	case '[':
		e.array(depth)
	case '"':
		e.string(e.str(), depth, onPath)
	default: // a number, true, false or null
		start := e.i
		for e.i < len(e.src) && !delimiter(e.src[e.i]) {
			e.i++
		}
		e.out = append(e.out, e.src[start:e.i]...)
	}
}

// object copies the object at e.i, member by member.
func (e *encoded) object(depth int, onPath bool) {
	e.out = append(e.out, '{')
	e.i++
	for n := 0; ; n++ {
		e.space()
		if e.src[e.i] == '}' {
			break
		}
		if e.src[e.i] == ',' {
			e.i++
			e.space()
		}
		if n > 0 {
			e.out = append(e.out, ',')
		}
		e.member(depth, onPath)
	}
	e.out = append(e.out, '}')
	e.i++
}

// member copies the member of an object whose key is at e.i. A key that
// held a secret takes the value "[REDACTED]"; the value of a sensitive key
// is judged by under, and any other copied by value.
func (e *encoded) member(depth int, onPath bool) {
	tok := e.str()
	name := unquote(tok)
	sk, gone := scrubKey(name)
	if gone {
		q, _ := json.Marshal(sk) // a string always encodes
		e.out = append(e.out, q...)
	} else {
		e.out = append(e.out, tok...)
	}
	e.out = append(e.out, ':')
	e.space()
	e.i++ // ':'
	if gone {
		e.out = append(e.out, `"`+Marker+`"`...)
		e.skip()
		return
	}
	wanted := onPath && depth < len(e.find) && e.find[depth] != "" && name == e.find[depth]
	if st := strengthOf(name); st != notSecret {
		e.under(st, depth+1, wanted)
		return
	}
	e.value(depth+1, wanted)
}

// array copies the array at e.i, element by element.
func (e *encoded) array(depth int) {
	e.elements(func() { e.value(depth+1, false) })
}

// elements copies the brackets and commas of the array at e.i, and each
// element by a call of copyOne, which copies the one at e.i.
func (e *encoded) elements(copyOne func()) {
	e.out = append(e.out, '[')
	e.i++
	for n := 0; ; n++ {
		e.space()
		if e.src[e.i] == ']' {
			break
		}
		if e.src[e.i] == ',' {
			e.i++
		}
		if n > 0 {
			e.out = append(e.out, ',')
		}
		copyOne()
	}
	e.out = append(e.out, ']')
	e.i++
}

// string copies the string token tok, scrubbed.
func (e *encoded) string(tok []byte, depth int, onPath bool) {
	s := unquote(tok)
	t := String(s)
	if t == s && plain(tok) {
		e.out = append(e.out, tok...)
	} else {
		q, _ := json.Marshal(t) // a string always encodes
		e.out = append(e.out, q...)
	}
	if onPath && depth == len(e.find) {
		e.found = t
	}
}

// under copies the value at e.i, the value of a key of strength st,
// redacted by the rules of member.go.
func (e *encoded) under(st strength, depth int, onPath bool) {
	e.space()
	switch c := e.src[e.i]; c {
	case '"':
		tok := e.str()
		if !secretText(unquote(tok), st) {
			e.string(tok, depth, onPath)
			return
		}
		e.out = append(e.out, `"`+Marker+`"`...)
		if onPath && depth == len(e.find) {
			e.found = Marker
		}
	case '{':
		if st != strongKey {
			e.value(depth, onPath)
			return
		}
		e.out = append(e.out, `"`+Marker+`"`...)
		e.skip()
	case '[':
		e.elements(func() { e.under(st, depth+1, false) })
	case 't', 'f', 'n':
		e.value(depth, onPath)
	default: // a number
		if st != strongKey {
			e.value(depth, onPath)
			return
		}
		e.out = append(e.out, `"`+Marker+`"`...)
		e.skip()
	}
}

// skip moves e.i past the value at e.i.
func (e *encoded) skip() {
	e.space()
	switch e.src[e.i] {
	case '"':
		e.str()
	case '{', '[':
		for depth := 0; ; {
			switch e.src[e.i] {
			case '"':
				e.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			e.i++
			if depth == 0 {
				return
			}
		}
	default:
		for e.i < len(e.src) && !delimiter(e.src[e.i]) {
			e.i++
		}
	}
}

// str returns the string token at e.i, quotes included, and moves past it.
func (e *encoded) str() []byte {
	start := e.i
	for e.i++; e.src[e.i] != '"'; e.i++ {
		if e.src[e.i] == '\\' {
			e.i++
		}
	}
	e.i++
	return e.src[start:e.i]
}

// space moves e.i past insignificant whitespace.
func (e *encoded) space() {
	for e.i < len(e.src) {
		switch e.src[e.i] {
		case ' ', '\t', '\n', '\r':
			e.i++
		default:
			return
		}
	}
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// plain reports whether the string token tok holds its value as it is: no
// escape, and valid UTF-8 (which a decoder would otherwise replace).
func plain(tok []byte) bool {
	for _, c := range tok[1 : len(tok)-1] {
		if c == '\\' {
			return false
		}
	}
	return utf8.Valid(tok)
}

// unquote returns the value of the valid string token tok.
func unquote(tok []byte) string {
	if plain(tok) {
		return string(tok[1 : len(tok)-1])
	}
	var s string
	_ = json.Unmarshal(tok, &s) // tok is a valid JSON string
	return s
}
