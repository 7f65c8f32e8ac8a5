package schema

import "iter"

// A scan of JSON known to be valid, for [Unions]: the members of an
// object and the elements of an array, as slices of the input. Where each
// object and array ends is found once, in one pass, so that stepping over
// one costs nothing however deep the walk that steps over it.
type jsonScan struct {
	v    []byte
	ends []int32 // at the index of each '{' and '[': the index past its end
}

// newJSONScan indexes v, one valid JSON value.
func newJSONScan(v []byte) *jsonScan {
	s := &jsonScan{v: v, ends: make([]int32, len(v))}
	var open []int
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			i = s.stringEnd(i) - 1
		case '{', '[':
			open = append(open, i)
		case '}', ']':
			s.ends[open[len(open)-1]] = int32(i + 1)
			open = open[:len(open)-1]
		}
	}
	return s
}

// member is one member of a JSON object: its key, quoted, and its value.
type member struct {
	key          []byte
	valueAt, end int // the value is v[valueAt:end]
}

// members yields the members of the object at i, in order.
func (s *jsonScan) members(i int) iter.Seq2[int, member] {
	v := s.v
	return func(yield func(int, member) bool) {
		i := s.space(i + 1)
		for n := 0; i < len(v) && v[i] != '}'; n++ {
			keyEnd := s.stringEnd(i)
			start := s.space(s.space(keyEnd) + 1)
			end := s.valueEnd(start)
			if !yield(n, member{key: v[i:keyEnd], valueAt: start, end: end}) {
				return
			}
			if i = s.space(end); i < len(v) && v[i] == ',' {
				i = s.space(i + 1)
			}
		}
	}
}

// elements yields the start of each element of the array at i, in order.
func (s *jsonScan) elements(i int) iter.Seq2[int, int] {
	v := s.v
	return func(yield func(int, int) bool) {
		i := s.space(i + 1)
		for n := 0; i < len(v) && v[i] != ']'; n++ {
			if !yield(n, i) {
				return
			}
			if i = s.space(s.valueEnd(i)); i < len(v) && v[i] == ',' {
				i = s.space(i + 1)
			}
		}
	}
}

// space returns the index of the first byte at or after i that is not
// JSON white space.
func (s *jsonScan) space(i int) int {
	for i < len(s.v) && (s.v[i] == ' ' || s.v[i] == '\t' || s.v[i] == '\r' || s.v[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string that starts at i.
func (s *jsonScan) stringEnd(i int) int {
	for i++; i < len(s.v); i++ {
		switch s.v[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// valueEnd returns the index just past the value that starts at i.
func (s *jsonScan) valueEnd(i int) int {
	switch s.v[i] {
	case '"':
		return s.stringEnd(i)
	case '{', '[':
		return int(s.ends[i])
	}
	for i < len(s.v) {
		switch s.v[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}
