package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Tree redacts, in place, a tree of map[string]any and []any values as
// encoding/json decodes it, and returns the tree: the value of every map key
// that [Key] finds sensitive, at any depth, becomes [Marker] (the whole
// subtree goes), and every other string goes through [String]. Values of
// other types are left as they are.
func Tree(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if Key(k) {
				t[k] = Marker
			} else {
				t[k] = Tree(val)
			}
		}
	case []any:
		for i, val := range t {
			t[i] = Tree(val)
		}
	case string:
		return String(t)
	}
	return v
}

// JSON returns a redacted copy of v built from JSON values: v goes through
// encoding/json into map[string]any, []any, string, json.Number, bool and
// nil values, which [Tree] then redacts. Struct fields therefore appear under
// their JSON names (a field tagged json:"token" is redacted) and json:"-"
// fields are left out; numbers stay exact.
//
// It returns an error when v cannot be encoded (a channel, a func, a cycle,
// NaN, a MarshalJSON that fails or panics); the error's text is scrubbed.
func JSON(v any) (any, error) {
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
