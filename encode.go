package mcpcore

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// encodeData encodes a failure's data for the wire, once. Data that JSON
// cannot carry (NaN, ±Inf, a func, a chan, a cycle, a MarshalJSON that fails
// or panics) is dropped entry by entry rather than losing the answer: the SDK
// would send nothing at all for a result it cannot encode, and the client
// would wait until its own timeout. The client gets everything that could be
// encoded; dropped lists what was left out and why, for the log.
func encodeData(data map[string]any) (encoded json.RawMessage, dropped []string) {
	if data == nil {
		return nil, nil
	}
	if b, err := marshal(data); err == nil {
		return b, nil
	}
	clean, _ := encodable(data, "data", &dropped, map[uintptr]bool{})
	b, err := marshal(clean)
	if err != nil {
		// Unreachable: every value left passed marshal on its own.
		return nil, append(dropped, "data: "+err.Error())
	}
	return b, dropped
}

// marshal is json.Marshal that reports a panicking MarshalJSON as an error.
func marshal(v any) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("panic while encoding: %v", r)
		}
	}()
	return json.Marshal(v)
}

// encodable returns v, or a copy of it without the parts JSON cannot encode,
// and whether anything of v is left. Maps and slices of the shapes data
// usually has are cleaned member by member; any other value is kept or
// dropped whole. onPath holds the maps and slices being walked, so that a
// cycle is cut where it closes.
func encodable(v any, path string, dropped *[]string, onPath map[uintptr]bool) (any, bool) {
	_, err := marshal(v)
	if err == nil {
		return v, true
	}
	switch t := v.(type) {
	case map[string]any:
		p := reflect.ValueOf(t).Pointer()
		if onPath[p] {
			*dropped = append(*dropped, path+": a cycle")
			return nil, false
		}
		onPath[p] = true
		defer delete(onPath, p)
		out := make(map[string]any, len(t))
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if x, ok := encodable(t[k], path+"."+k, dropped, onPath); ok {
				out[k] = x
			}
		}
		return out, true
	case []any:
		if len(t) == 0 {
			break
		}
		p := reflect.ValueOf(t).Pointer()
		if onPath[p] {
			*dropped = append(*dropped, path+": a cycle")
			return nil, false
		}
		onPath[p] = true
		defer delete(onPath, p)
		out := make([]any, len(t))
		for i, x := range t {
			// A dropped element becomes null, so that indices still
			// point at the same elements.
			out[i], _ = encodable(x, fmt.Sprintf("%s[%d]", path, i), dropped, onPath)
		}
		return out, true
	}
	*dropped = append(*dropped, path+": "+err.Error())
	return nil, false
}
