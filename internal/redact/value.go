package redact

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Value returns what [Encoded] makes of json.Marshal(v), byte for byte, by
// walking v itself: a failure's data is most often a few maps, strings and
// numbers, and encoding them to scrub the text again costs as much as the
// rest of rendering the failure. A []byte is the exception: Value sends it
// scrubbed, as a string as [Tree] makes it, where encoding/json would send
// it base64-encoded, which no scrubbing of the encoding could read; Value(v)
// is what Encoded makes of json.Marshal of v with each []byte so replaced.
// ok is
// false, and nothing else is set, when v holds anything but map[string]any,
// map[string]string, []any, []string, []byte, string, bool, nil, an integer
// or a finite float64, or is nested deeper than maxValueDepth (a cycle):
// the caller encodes it then.
func Value(v any, find ...string) (out []byte, found string, ok bool) {
	e := valueEncoder{find: find, out: make([]byte, 0, 128)}
	if !e.value(v, 0, len(find) > 0) {
		return nil, "", false
	}
	return e.out, e.found, true
}

// maxValueDepth bounds the walk: data nested deeper is left to
// encoding/json, which also reports a cycle.
const maxValueDepth = 64

// valueEncoder is the state of one Value.
type valueEncoder struct {
	out   []byte
	find  []string
	found string
}

// value appends v, redacted, and reports whether v was of a shape it knows.
// onPath says that the keys that lead to v are find[:depth].
func (e *valueEncoder) value(v any, depth int, onPath bool) bool {
	if depth > maxValueDepth {
		return false
	}
	switch t := v.(type) {
	case nil:
		e.out = append(e.out, "null"...)
	case string:
		e.text(t, depth, onPath)
	case bool:
		e.out = strconv.AppendBool(e.out, t)
	case map[string]any:
		return e.object(t == nil, sortedKeys(t), func(k string) any { return t[k] }, depth, onPath)
	case map[string]string:
		return e.object(t == nil, sortedKeys(t), func(k string) any { return t[k] }, depth, onPath)
	case []any:
		return e.array(t == nil, len(t), func(i int) bool { return e.value(t[i], depth+1, false) })
	case []string:
		return e.array(t == nil, len(t), func(i int) bool { e.string(t[i]); return true })
	case []byte:
		if t == nil {
			e.out = append(e.out, "null"...)
			return true
		}
		e.text(bytesText(t), depth, onPath)
	default:
		return e.number(v)
	}
	return true
}

// text appends the string s, scrubbed, and keeps it as found when it is
// the string find names.
func (e *valueEncoder) text(s string, depth int, onPath bool) {
	t := e.string(s)
	if onPath && depth == len(e.find) {
		e.found = t
	}
}

// number appends v when it is an integer or a finite float64, and reports
// whether it was.
func (e *valueEncoder) number(v any) bool {
	switch t := v.(type) {
	case float64:
		return e.float(t)
	case int, int8, int16, int32, int64:
		e.out = strconv.AppendInt(e.out, reflect.ValueOf(t).Int(), 10)
	case uint, uint8, uint16, uint32, uint64:
		e.out = strconv.AppendUint(e.out, reflect.ValueOf(t).Uint(), 10)
	default:
		return false
	}
	return true
}

// array appends a slice of n elements, each appended by elem, which
// reports whether it knew the element's shape; a nil slice is null.
func (e *valueEncoder) array(isNil bool, n int, elem func(int) bool) bool {
	if isNil {
		e.out = append(e.out, "null"...)
		return true
	}
	e.out = append(e.out, '[')
	for i := range n {
		if i > 0 {
			e.out = append(e.out, ',')
		}
		if !elem(i) {
			return false
		}
	}
	e.out = append(e.out, ']')
	return true
}

// object appends the members of a map in the order encoding/json writes
// them, its keys sorted; a nil map is null.
func (e *valueEncoder) object(isNil bool, keys []string, get func(string) any, depth int, onPath bool) bool {
	if isNil {
		e.out = append(e.out, "null"...)
		return true
	}
	e.out = append(e.out, '{')
	for i, k := range keys {
		if i > 0 {
			e.out = append(e.out, ',')
		}
		name := k
		if !utf8.ValidString(name) {
			name = replaceInvalid(name)
		}
		sk, gone := scrubKey(name)
		if gone {
			e.out = appendQuoted(e.out, sk)
		} else {
			e.out = appendQuoted(e.out, k)
		}
		want := ""
		if onPath && depth < len(e.find) {
			want = e.find[depth]
		}
		wanted := want != "" && name == want
		e.out = append(e.out, ':')
		st := strengthOf(name)
		switch {
		case gone:
			if !e.redacted(get(k), depth+1) {
				return false
			}
		case st != notSecret:
			if !e.under(st, get(k), depth+1, wanted) {
				return false
			}
		default:
			if !e.value(get(k), depth+1, wanted) {
				return false
			}
		}
	}
	e.out = append(e.out, '}')
	return true
}

// redacted appends the marker for v, which must still be a value that
// encodes: encoding/json would fail on it, and Value with it.
func (e *valueEncoder) redacted(v any, depth int) bool {
	mark := len(e.out)
	if !e.value(v, depth, false) {
		return false
	}
	e.out = append(e.out[:mark], `"`+Marker+`"`...)
	return true
}

// under appends v, the value of a key of strength st, redacted by the
// rules of member.go.
func (e *valueEncoder) under(st strength, v any, depth int, onPath bool) bool {
	switch t := v.(type) {
	case string:
		s := t
		if !utf8.ValidString(s) {
			s = replaceInvalid(s)
		}
		if !secretText(s, st) {
			return e.value(t, depth, onPath)
		}
		e.out = append(e.out, `"`+Marker+`"`...)
		if onPath && depth == len(e.find) {
			e.found = Marker
		}
		return true
	case []byte:
		if t == nil {
			return e.value(v, depth, onPath)
		}
		return e.under(st, bytesText(t), depth, onPath)
	case nil, bool:
		return e.value(v, depth, onPath)
	case map[string]any, map[string]string:
		if st != strongKey {
			return e.value(v, depth, onPath)
		}
		return e.redacted(v, depth)
	case []any:
		return e.array(t == nil, len(t), func(i int) bool { return e.under(st, t[i], depth+1, false) })
	case []string:
		return e.array(t == nil, len(t), func(i int) bool { return e.under(st, t[i], depth+1, false) })
	}
	if st == strongKey {
		return e.redacted(v, depth) // a number
	}
	return e.value(v, depth, onPath)
}

// string appends the string s as Encoded leaves the token that
// encoding/json makes of it, and returns its value as sent: scrubbed by
// String, after invalid UTF-8 is replaced as a decoder replaces it.
func (e *valueEncoder) string(s string) string {
	if !utf8.ValidString(s) {
		s = replaceInvalid(s)
	}
	t := String(s)
	e.out = appendQuoted(e.out, t)
	return t
}

// float appends f as encoding/json writes a float64; false for NaN and the
// infinities, which it refuses.
func (e *valueEncoder) float(f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.out = strconv.AppendFloat(e.out, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		if n := len(e.out); n >= 4 && e.out[n-4] == 'e' && e.out[n-3] == '-' && e.out[n-2] == '0' {
			e.out[n-2] = e.out[n-1]
			e.out = e.out[:n-1]
		}
	}
	return true
}

// appendQuoted appends s as encoding/json quotes it: plainly when nothing
// in it needs an escape, which is the common case.
func appendQuoted(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// replaceInvalid replaces each byte of s that is not part of valid UTF-8
// with U+FFFD, as encoding/json writes it and a decoder reads it back.
func replaceInvalid(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// sortedKeys returns the keys of m in encoding/json's order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
