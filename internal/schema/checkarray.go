package schema

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"strings"
)

// The walk of the keywords for arrays (see walker in check.go), and the
// search for duplicates of uniqueItems.

// array applies the keywords of n for arrays to arr.
func (w *walker) array(n *compiled, arr []any, ev *evaluated) bool {
	ok := w.arraySize(n, arr)
	if !ok && !w.report {
		return false
	}
	prefix := min(len(n.prefixItems), len(arr))
	for i := range prefix {
		if !w.descend(n.prefixItems[i], arr[i], segment{index: i}) {
			ok = false
			if !w.report {
				return false
			}
		}
	}
	ev.markItems(prefix)
	if n.items != nil && prefix < len(arr) {
		if n.legacyItems && n.items.never {
			w.fail("additionalItems", fmt.Sprintf("too many items: %d more than allowed", len(arr)-prefix))
			if !w.report {
				return false
			}
			ok = false
		} else if !w.itemsFrom(n.items, arr, prefix) {
			ok = false
		}
		ev.markItems(len(arr))
	}
	if n.contains != nil {
		ok = w.contains(n, arr, ev) && ok
	}
	return ok
}

// arraySize applies minItems, maxItems and uniqueItems.
func (w *walker) arraySize(n *compiled, arr []any) bool {
	ok := true
	if n.minItems >= 0 && len(arr) < n.minItems {
		w.fail("minItems", fmt.Sprintf("expected an array of at least %s, received %d", plural(n.minItems, "item"), len(arr)))
		ok = false
	}
	tooMany := n.maxItems >= 0 && len(arr) > n.maxItems
	if tooMany {
		w.fail("maxItems", fmt.Sprintf("expected an array of at most %s, received %d", plural(n.maxItems, "item"), len(arr)))
		ok = false
	}
	// An array already too long is not searched for duplicates: the
	// search costs in proportion to the items, which the cheap check has
	// refused (see Check).
	if n.uniqueItems && len(arr) > 1 && !tooMany {
		if i, j := w.duplicates(arr); i >= 0 {
			w.fail("uniqueItems", fmt.Sprintf("expected unique items, items %d and %d are equal", i, j))
			ok = false
		}
	}
	return ok
}

// itemsFrom walks the items of arr from index from on against items,
// stopping early (see walker).
func (w *walker) itemsFrom(items *compiled, arr []any, from int) bool {
	ok := true
	for i := from; i < len(arr); i++ {
		if !w.descend(items, arr[i], segment{index: i}) {
			ok = false
			if w.stop() {
				break
			}
		}
	}
	return ok
}

// contains applies contains, minContains and maxContains.
func (w *walker) contains(n *compiled, arr []any, ev *evaluated) bool {
	matched := 0
	for i, item := range arr {
		if w.validOnly(n.contains, item, nil) {
			matched++
			ev.markItem(i)
		}
	}
	ok := true
	switch {
	case n.minContains >= 0 && matched < n.minContains:
		w.fail("minContains", fmt.Sprintf("expected at least %s, received %d", plural(n.minContains, "matching item"), matched))
		ok = false
	case n.minContains < 0 && matched == 0:
		w.fail("contains", "expected the array to contain at least one matching item")
		ok = false
	}
	if n.maxContains >= 0 && matched > n.maxContains {
		w.fail("maxContains", fmt.Sprintf("expected at most %s, received %d", plural(n.maxContains, "matching item"), matched))
		ok = false
	}
	return ok
}

// duplicates returns the first pair of equal items, (j, i) with j < i and
// i as small as possible, or -1, -1. Long arrays are hashed, numbers by
// their exact value, so the cost stays linear: items are compared only
// when their hashes are equal, which for unequal items is rare.
func (w *walker) duplicates(arr []any) (int, int) {
	if len(arr) <= 20 {
		for i := 1; i < len(arr); i++ {
			for j := range i {
				w.spend(1)
				if equalValues(arr[i], arr[j]) {
					return j, i
				}
			}
		}
		return -1, -1
	}
	if w.hashSeed == (maphash.Seed{}) {
		w.hashSeed = maphash.MakeSeed()
	}
	seen := make(map[uint64][]int, len(arr))
	var h maphash.Hash
	for i, item := range arr {
		h.SetSeed(w.hashSeed)
		w.hashValue(&h, item)
		sum := h.Sum64()
		for _, j := range seen[sum] {
			w.spend(1)
			if equalValues(item, arr[j]) {
				return j, i
			}
		}
		seen[sum] = append(seen[sum], i)
	}
	return -1, -1
}

// hashValue hashes v so that equal values (1 and 1.0 included) hash alike,
// and numbers by their exact value (see hashNumber). An array or object
// within v is hashed once per walk (see containerHash): a uniqueItems in
// a recursive schema hashes the arrays below it again at every level.
func (w *walker) hashValue(h *maphash.Hash, v any) {
	w.spend(1)
	switch v := v.(type) {
	case nil:
		h.WriteByte(0)
	case bool:
		h.WriteByte(1)
		if v {
			h.WriteByte(1)
		}
	case string:
		h.WriteByte(2)
		h.WriteString(v)
	case []any:
		h.WriteByte(4)
		for _, e := range v {
			w.hashMember(h, e)
		}
	case map[string]any:
		h.WriteByte(5)
		for _, k := range sortedKeys(v, true) {
			h.WriteString(strings.ReplaceAll(k, "\x00", "\x00\x00"))
			h.WriteByte(0)
			w.hashMember(h, v[k])
		}
	default:
		if isNumber(v) {
			hashNumber(h, v)
		}
	}
}

// hashMember hashes a member of an array or object: a scalar as it is, an
// array or object by its hash, computed once per walk.
func (w *walker) hashMember(h *maphash.Hash, v any) {
	key, container := w.memoKey(nil, v) // false for a scalar, or an empty array or object
	if !container {
		w.hashValue(h, v)
		return
	}
	key.scope = nil
	sum, ok := w.hashes[key]
	if !ok {
		var inner maphash.Hash
		inner.SetSeed(w.hashSeed)
		w.hashValue(&inner, v)
		sum = inner.Sum64()
		if w.hashes == nil {
			w.hashes = map[memoKey]uint64{}
		}
		w.hashes[key] = sum
	}
	var b [9]byte
	b[0] = 6
	binary.LittleEndian.PutUint64(b[1:], sum)
	h.Write(b[:])
}
