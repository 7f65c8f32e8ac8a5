package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// Tree redacts, in place, a tree of map[string]any and []any values as
// encoding/json decodes it, and returns the tree: every string, at any
// depth, goes through [String], and so do the keys of every map; a key
// that held a secret is replaced by its scrubbed form, with the value
// [Marker]. The value of a key that [Key] finds sensitive is replaced by
// [Marker] when it is a credential: a string that is not prose, a number,
// an object (under the key "key" alone, only a token-like string); the
// elements of an array under such a key are judged one by one; true,
// false, null and prose stay. A []byte is scrubbed as text and becomes a
// string: that text when it is UTF-8, its base64 otherwise. Values of other
// types are left as they are, but under a sensitive key, where they are
// replaced; see [Copy] for a tree that holds them, or that belongs to
// someone else. Each map and slice is visited once, so a tree that shares a
// subtree or holds a cycle is redacted without looping.
func Tree(v any) any {
	switch t := v.(type) {
	case string:
		return String(t)
	case []byte:
		return bytesText(t)
	case map[string]any, []any:
		w := walk{seen: map[container]any{}}
		w.tree(v)
	}
	return v
}

// A container identifies a map or a slice of a tree during a walk: its
// data pointer, and a slice's length (-1 for a map), so that a shared or
// cyclic part is handled once.
type container struct {
	p uintptr
	n int
}

// identity returns the container of a map or a non-empty slice, and false
// for anything else: an empty slice has nothing to redact or to share.
func identity(v any) (container, bool) {
	switch t := v.(type) {
	case map[string]any:
		return container{reflect.ValueOf(t).Pointer(), -1}, t != nil
	case []any:
		return container{reflect.ValueOf(t).Pointer(), len(t)}, len(t) > 0
	}
	return container{}, false
}

// walk is the state of one Tree or Copy: the containers handled so far,
// with Copy's copy of each.
type walk struct {
	seen map[container]any
}

// tree redacts v in place and returns it.
func (w *walk) tree(v any) any {
	if id, ok := identity(v); ok {
		if _, done := w.seen[id]; done {
			return v
		}
		w.seen[id] = nil // Tree needs no copy: a nil costs no allocation
	}
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if sk, gone := scrubKey(k); gone {
				delete(t, k)
				t[sk] = Marker
				continue
			}
			if st := strengthOf(k); st != notSecret {
				t[k] = w.under(st, val, true)
			} else {
				t[k] = w.tree(val)
			}
		}
	case []any:
		for i, val := range t {
			t[i] = w.tree(val)
		}
	case string:
		return String(t)
	case []byte:
		return bytesText(t)
	}
	return v
}

// under returns v, the value of a key of strength st, redacted by the rules
// of member.go: in place for Tree, a copy for Copy.
func (w *walk) under(st strength, v any, inPlace bool) any {
	switch t := v.(type) {
	case string:
		if secretText(t, st) {
			return Marker
		}
		return String(t)
	case []byte:
		if t == nil {
			return v
		}
		return w.under(st, bytesText(t), inPlace)
	case nil, bool:
		return v
	case map[string]any:
		switch {
		case st == strongKey:
			return Marker
		case inPlace:
			return w.tree(t)
		}
		return w.copy(t)
	case []any:
		return w.underList(st, t, inPlace)
	}
	if st == strongKey {
		return Marker // a number, or a value Tree does not walk
	}
	if inPlace {
		return v
	}
	return copyLeaf(v)
}

// underList returns t, the value of a key of strength st, with each element
// redacted by under: in place for Tree, a copy for Copy. A list met before
// on the walk is what it became then, so that a cycle stays a cycle.
func (w *walk) underList(st strength, t []any, inPlace bool) any {
	id, ok := identity(t)
	if ok {
		if out, done := w.seen[id]; done {
			if inPlace {
				return t
			}
			return out
		}
	}
	out := t
	if !inPlace && t != nil {
		out = make([]any, len(t))
	}
	if ok {
		w.seen[id] = out
	}
	for i, val := range t {
		out[i] = w.under(st, val, inPlace)
	}
	return out
}

// Copy returns a redacted deep copy of v and leaves v as it was, for a
// value that belongs to someone else, such as the data of an error on its
// way to the wire. It follows the rules of [Tree]: keys and strings at any
// depth go through [String], and the value of a key that [Key] finds
// sensitive is replaced by [Marker] when it is a credential.
//
//   - map[string]any and []any are copied, element by element; a subtree
//     shared in v is shared in the copy, and a cycle stays a cycle;
//   - strings are scrubbed, and so is a []byte, which becomes a string
//     as in [Tree]; nil, booleans, numbers and json.Number are returned as
//     they are;
//   - any other value (a struct, a pointer, a typed map or slice, a
//     json.RawMessage) becomes what [JSON] makes of it: the map[string]any,
//     []any and scalar tree encoding/json gives it, redacted, which encodes
//     as the value would, minus its secrets; a value encoding/json cannot
//     encode becomes the string "[unencodable value: <reason>]".
func Copy(v any) any {
	switch v.(type) {
	case map[string]any, []any:
		w := walk{seen: map[container]any{}}
		return w.copy(v)
	}
	return copyLeaf(v)
}

// copy returns a redacted copy of v.
func (w *walk) copy(v any) any {
	id, ok := identity(v)
	if ok {
		if out, done := w.seen[id]; done {
			return out
		}
	}
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return t
		}
		out := make(map[string]any, len(t))
		if ok {
			w.seen[id] = out
		}
		for k, val := range t {
			if sk, gone := scrubKey(k); gone {
				out[sk] = Marker
				continue
			}
			if st := strengthOf(k); st != notSecret {
				switch val.(type) {
				case map[string]any, []any, string, []byte, nil, bool:
				default:
					val = copyLeaf(val) // judged as encoding/json sends it
				}
				out[k] = w.under(st, val, false)
			} else {
				out[k] = w.copy(val)
			}
		}
		return out
	case []any:
		if t == nil {
			return t
		}
		out := make([]any, len(t))
		if ok {
			w.seen[id] = out
		}
		for i, val := range t {
			out[i] = w.copy(val)
		}
		return out
	}
	return copyLeaf(v)
}

// copyLeaf returns a redacted copy of a value other than map[string]any
// and []any.
func copyLeaf(v any) any {
	switch t := v.(type) {
	case nil, bool, json.Number, float64, float32,
		int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		return v
	case string:
		return String(t)
	case []byte:
		if t == nil {
			return v
		}
		return bytesText(t)
	}
	out, err := JSON(v)
	if err != nil {
		return "[unencodable value: " + err.Error() + "]"
	}
	return out
}

// JSON returns a redacted copy of v built from JSON values: v goes through
// encoding/json into map[string]any, []any, string, json.Number, bool and
// nil values, which [Tree] then redacts. Struct fields therefore appear under
// their JSON names (a field tagged json:"token" is redacted) and json:"-"
// fields are left out; numbers stay exact.
//
// A []byte given to JSON becomes a string as in [Tree] first: encoding/json
// would send it base64-encoded, which no scrubbing of the text could read.
//
// It returns an error when v cannot be encoded (a channel, a func, a cycle,
// NaN, a MarshalJSON that fails or panics); the error's text is scrubbed.
func JSON(v any) (any, error) {
	if b, ok := v.([]byte); ok && b != nil {
		v = bytesText(b)
	}
	b, err := marshal(v)
	if err != nil {
		return nil, errors.New(String(err.Error()))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, errors.New(String(err.Error()))
	}
	return Tree(out), nil
}

// marshal is json.Marshal, with a panic in a MarshalJSON or MarshalText
// method turned into an error: what is being logged must never take the
// logger down.
func marshal(v any) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("json: marshal panicked: %v", r)
		}
	}()
	return json.Marshal(v)
}
