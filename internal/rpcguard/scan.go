package rpcguard

import (
	"bytes"
	"encoding/json"
)

// Scanning of JSON text that json.Valid accepted, or that the SDK wrote:
// the guard finds members and elements by their bounds, without decoding
// or copying them, so that a 16 MiB line costs one validation and one scan.
// On text that is not valid after all, the functions stop early; they never
// index past the end.

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipValue returns the index just past the value that starts at i.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

// skipString returns the index just past the string that starts at i:
// past the first quote after it that an odd number of backslashes does not
// escape.
func skipString(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return len(b)
		}
		i += 1 + j
		escapes := 0
		for k := i - 1; b[k] == '\\'; k-- {
			escapes++
		}
		if escapes%2 == 0 {
			return i + 1
		}
	}
}

// A memberIter reads the members of a JSON object one at a time: key, then
// value if the caller wants it.
type memberIter struct {
	b []byte
	i int
}

// newMembers starts reading the object obj; ok is false when obj is not
// an object.
func newMembers(obj []byte) (*memberIter, bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	return &memberIter{b: obj, i: i + 1}, true
}

// key returns the next member's key, decoded, and moves to its value; ok
// is false at the end of the object. The key is a slice of the object
// unless it holds an escape: every line passes here, and most keys are
// compared, not kept.
func (m *memberIter) key() (key []byte, ok bool) {
	m.i = skipSpace(m.b, m.i)
	if m.i < len(m.b) && m.b[m.i] == ',' {
		m.i = skipSpace(m.b, m.i+1)
	}
	if m.i >= len(m.b) || m.b[m.i] != '"' {
		return nil, false
	}
	end := skipString(m.b, m.i)
	raw := m.b[m.i:end]
	if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		key = raw[1 : len(raw)-1]
	} else {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, false
		}
		key = []byte(s)
	}
	m.i = skipSpace(m.b, end)
	if m.i < len(m.b) && m.b[m.i] == ':' {
		m.i = skipSpace(m.b, m.i+1)
	}
	return key, true
}

// value returns the value of the member whose key was just read.
func (m *memberIter) value() []byte {
	start := m.i
	m.i = skipValue(m.b, m.i)
	return m.b[start:m.i]
}

// elements returns the elements of the JSON array arr, as slices of it.
func elements(arr []byte) [][]byte {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil
	}
	var out [][]byte
	for i = skipSpace(arr, i+1); i < len(arr) && arr[i] != ']'; i = skipSpace(arr, i) {
		if arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
		end := skipValue(arr, i)
		if end == i {
			break
		}
		out = append(out, arr[i:end])
		i = end
	}
	return out
}
