package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// decodeJSON decodes one JSON value, numbers as json.Number, and refuses
// anything after it. Every call's arguments pass here: valid JSON is
// decoded by a walk of its own, which allocates only the values (a map, a
// string, a number), where encoding/json's Decoder costs some fifteen
// allocations of its own per call. Invalid JSON, and nesting deeper than
// encoding/json accepts, go to encoding/json, so that the error is its.
func decodeJSON(data []byte) (any, error) {
	if !json.Valid(data) {
		return decodeStd(data)
	}
	d := jsonDecoder{b: data}
	v, ok := d.value(0)
	if !ok {
		return decodeStd(data)
	}
	return v, nil
}

// decodeStd is decodeJSON by encoding/json.
func decodeStd(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	return v, nil
}

// maxDecodeDepth is encoding/json's own limit of nesting.
const maxDecodeDepth = 10000

// jsonDecoder walks JSON known to be valid.
type jsonDecoder struct {
	b []byte
	i int
}

func (d *jsonDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

// value decodes the value at d.i; ok is false when it nests deeper than
// maxDecodeDepth.
func (d *jsonDecoder) value(depth int) (any, bool) {
	if depth > maxDecodeDepth {
		return nil, false
	}
	d.space()
	switch d.b[d.i] {
	case '{':
		return d.object(depth)
	case '[':
		return d.array(depth)
	case '"':
		return d.str(), true
	case 't':
		d.i += 4
		return true, true
	case 'f':
		d.i += 5
		return false, true
	case 'n':
		d.i += 4
		return nil, true
	}
	return d.number(), true
}

// object decodes the object at d.i, at depth.
func (d *jsonDecoder) object(depth int) (any, bool) {
	d.i++
	m := map[string]any{}
	for {
		d.space()
		if d.b[d.i] == '}' {
			d.i++
			return m, true
		}
		if d.b[d.i] == ',' {
			d.i++
			d.space()
		}
		k := d.str()
		d.space()
		d.i++ // ':'
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k] = v
	}
}

// array decodes the array at d.i, at depth.
func (d *jsonDecoder) array(depth int) (any, bool) {
	d.i++
	a := []any{}
	for {
		d.space()
		if d.b[d.i] == ']' {
			d.i++
			return a, true
		}
		if d.b[d.i] == ',' {
			d.i++
		}
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		a = append(a, v)
	}
}

// number decodes the number at d.i.
func (d *jsonDecoder) number() json.Number {
	start := d.i
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			d.i++
			continue
		}
		break
	}
	return json.Number(d.b[start:d.i])
}

// str decodes the string at d.i.
func (d *jsonDecoder) str() string {
	start := d.i
	d.i++
	escaped := false
	for d.b[d.i] != '"' {
		if d.b[d.i] == '\\' {
			escaped = true
			d.i++
		}
		d.i++
	}
	d.i++
	raw := d.b[start:d.i]
	if body := raw[1 : len(raw)-1]; !escaped && utf8.Valid(body) {
		return string(body)
	}
	var s string
	json.Unmarshal(raw, &s) // valid JSON: it cannot fail
	return s
}
