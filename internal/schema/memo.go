package schema

import "reflect"

// Memoised verdicts.
//
// Whether a value matches a node depends on the two alone (and on the
// dynamic scope, for a schema with $dynamicRef): so once a walk has done
// more evaluations than a schema applying each node a few times to each
// value would (see newWalker), it records the verdict of each (node, object
// or array) pair, and an evaluation met again costs a lookup. Every pair is
// then evaluated once, and the walk costs at most the nodes of the schema
// times the values of the input, where a recursive union tried branch by
// branch, or an allOf naming one schema twice, would double its work at
// every level. Scalars are not recorded: their evaluation costs no more than
// the lookup, but for patterns (bounded apart, see Validator.Bounded).
//
// The report walk records too, which pairs it has walked: their issues are
// in the sink already, and walking a pair again adds the same issues (which
// sortIssues would remove) at the same cost.

// memoKey names a (node, value) pair: an object by its map, an array by
// its elements and length, which no other value of the walk shares (a
// value built in Go may hold one map twice: it then is one value).
type memoKey struct {
	n     *compiled
	p     uintptr
	l     int
	scope *scopeNode
}

// The bits of a memo entry.
const (
	memoKnown    uint8 = 1 << iota // the verdict is known
	memoValid                      // and it is valid
	memoReported                   // the report walk has walked the pair
)

// memoKey returns the key of (n, v), and false for a scalar or an empty
// object or array: those cost no descent, and empty arrays share their
// (lack of) elements, so that their key would name them all.
func (w *walker) memoKey(n *compiled, v any) (memoKey, bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 {
			return memoKey{n: n, p: reflect.ValueOf(v).Pointer(), l: -1, scope: w.scope}, true
		}
	case []any:
		if len(x) > 0 {
			return memoKey{n: n, p: reflect.ValueOf(v).Pointer(), l: len(x), scope: w.scope}, true
		}
	}
	return memoKey{}, false
}

// memoized evaluates (n, v) through the memo. A verdict reached through a
// loop of references, or cut by the context, is not recorded: it is not
// the value's.
func (w *walker) memoized(key memoKey, n *compiled, v any) bool {
	state := w.memo[key]
	switch {
	case !w.report && state&memoKnown != 0, w.report && state&memoValid != 0:
		return state&memoValid != 0 // a valid pair has no issue to report
	case w.report && state&memoReported != 0:
		if state&memoKnown != 0 {
			return state&memoValid != 0
		}
		return w.validOnly(n, v, nil)
	}
	loops := w.loops
	ok := w.keywords(n, v, nil)
	if w.loops == loops && w.err == nil {
		state = w.memo[key] | memoKnown
		if ok {
			state |= memoValid
		}
		if w.report {
			state |= memoReported
		}
		w.memo[key] = state
	}
	return ok
}
