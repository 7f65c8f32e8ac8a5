package schema

// equalValues reports whether two JSON values are equal, numbers by value.
func equalValues(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case map[string]any:
		bm, ok := b.(map[string]any)
		return ok && equalObjects(a, bm)
	case []any:
		ba, ok := b.([]any)
		return ok && equalArrays(a, ba)
	}
	return isNumber(a) && isNumber(b) && equalNumbers(a, b)
}

// equalObjects reports whether two JSON objects have the same keys with
// equal values.
func equalObjects(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !equalValues(av, bv) {
			return false
		}
	}
	return true
}

// equalArrays reports whether two JSON arrays have equal items.
func equalArrays(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalValues(a[i], b[i]) {
			return false
		}
	}
	return true
}
