package schema

import (
	"fmt"
	"slices"
)

// The walk of the keywords that apply subschemas to the value itself (see
// walker in check.go), and the report of a failed union.

// applicators walks the keywords that apply other schemas to the value
// itself, then unevaluated*.
func (w *walker) applicators(n *compiled, v any, ev *evaluated) bool {
	ok := n.dynamicRef == nil || w.inPlace(w.dynamicTarget(n), v, ev)
	if !ok && !w.report {
		return false
	}
	ok = w.logic(n, v, ev) && ok
	if !ok && !w.report {
		return false
	}
	if n.ifN != nil {
		if branch := w.branch(n, v, ev); branch != nil && !w.inPlace(branch, v, ev) {
			ok = false
			if !w.report {
				return false
			}
		}
	}
	if ev != nil && !w.unevaluated(n, v, ev) {
		ok = false
	}
	return ok
}

// logic walks not, allOf, anyOf and oneOf.
func (w *walker) logic(n *compiled, v any, ev *evaluated) bool {
	ok := true
	failed := func() bool { ok = false; return !w.report }
	if n.not != nil && w.validOnly(n.not, v, nil) {
		w.fail("not", "value matches a schema it must not match")
		if failed() {
			return false
		}
	}
	for _, s := range n.allOf {
		if !w.inPlace(s, v, ev) && failed() {
			return false
		}
	}
	if n.anyOf != nil && !w.anyOf(n.anyOf, v, ev) && failed() {
		return false
	}
	if n.oneOf != nil && !w.oneOf(n.oneOf, v, ev) && failed() {
		return false
	}
	return ok
}

// branch is the schema of then or else that applies to v (nil for none).
func (w *walker) branch(n *compiled, v any, ev *evaluated) *compiled {
	if w.validOnly(n.ifN, v, ev) {
		return n.then
	}
	return n.elseN
}

// anyOf walks the alternatives until one matches (all of them when
// unevaluated* needs their annotations), for validity: the report walk of
// a failed union is unionFailed's.
func (w *walker) anyOf(alts []*compiled, v any, ev *evaluated) bool {
	matched := false
	for _, a := range alts {
		if w.validOnly(a, v, ev) {
			matched = true
			if ev == nil {
				break
			}
		}
	}
	if !matched && w.report {
		w.unionFailed(alts, v, ev, "anyOf")
	}
	return matched
}

// oneOf walks the alternatives: the first match, then whether another
// matches too.
func (w *walker) oneOf(alts []*compiled, v any, ev *evaluated) bool {
	matched := -1
	for i, a := range alts {
		if w.validOnly(a, v, ev) {
			if matched >= 0 {
				w.fail("oneOf", "value matches more than one of the allowed alternatives")
				return false
			}
			matched = i
		}
	}
	if matched >= 0 {
		return true
	}
	if w.report {
		w.unionFailed(alts, v, ev, "oneOf")
	}
	return false
}

// unionFailed reports a union none of whose alternatives matched.
// Alternatives that fail only because the value has the wrong type, or
// because a property that tells the alternatives apart (a const or enum
// one, such as "kind") holds another alternative's value, are discarded;
// if one alternative is left its issues are the union's, otherwise the
// value matches none, said once (as a type error when every alternative
// failed on the type). Only the alternative left is walked for its
// issues: the others are judged from validity walks, which the memo
// bounds, so that nested unions cost no more than one walk of the
// alternative each level keeps.
func (w *walker) unionFailed(alts []*compiled, v any, ev *evaluated, keyword string) {
	if w.claimedVariant(alts, v, ev) {
		return
	}
	var left []*compiled
	var want []string
	for _, a := range alts {
		if t, ok := w.typeFailure(a, v, nil, nil); ok {
			want = append(want, t...)
		} else {
			left = append(left, a)
		}
	}
	if len(left) > 1 { // a discriminator may single one out
		left = slices.DeleteFunc(left, func(a *compiled) bool { return w.discriminated(a, v) })
	}
	switch {
	case len(left) == 1:
		w.inPlace(left[0], v, ev)
	case len(left) == 0 && len(want) > 0:
		w.fail("type", typeMessage(want, typeName(valueType(v))))
	default:
		w.fail(keyword, fmt.Sprintf("value matches none of the %d allowed alternatives", len(alts)))
	}
}

// typeFailure reports whether n fails v only where a type check of v
// itself fails (n, or a schema it applies to v in place through $ref,
// $dynamicRef, allOf or if, says another type), and the types those checks
// name. Every other keyword of the schemas it looks at must hold: a
// nullable object is anyOf[null, object], and a string sent there is one
// type error, not two. seen holds the nodes on the way, against loops.
func (w *walker) typeFailure(n *compiled, v any, want []string, seen []*compiled) ([]string, bool) {
	if n.never || slices.Contains(seen, n) {
		return want, false
	}
	t := valueType(v)
	if t == 0 {
		return want, false
	}
	if wrongType(n, v, t) {
		return append(want, n.typeNames...), true
	}
	if n.usesUnevaluated() || n.constRefuses(v) || n.enumRefuses(v) {
		return want, false
	}
	return w.inPlaceTypeFailure(n, v, want, append(seen, n))
}

// inPlaceTypeFailure is typeFailure for the schemas that n, of the right
// type for v, applies to v in place: whether some of them fail, each only
// on a type, and the other keywords of n hold.
func (w *walker) inPlaceTypeFailure(n *compiled, v any, want []string, seen []*compiled) ([]string, bool) {
	failed := false
	inPlace := func(s *compiled) bool {
		if s == nil || w.validOnly(s, v, nil) {
			return true
		}
		var ok bool
		want, ok = w.typeFailure(s, v, want, seen)
		failed = true
		return ok
	}
	if !inPlace(n.ref) {
		return want, false
	}
	if n.legacyRef {
		return want, failed
	}
	if n.dynamicRef != nil && !inPlace(w.dynamicTarget(n)) {
		return want, false
	}
	for _, s := range n.allOf {
		if !inPlace(s) {
			return want, false
		}
	}
	if n.ifN != nil && !inPlace(w.branch(n, v, nil)) {
		return want, false
	}
	return want, failed && w.othersHold(n, v)
}

// othersHold reports whether v passes the keywords of n that typeFailure
// does not look into: those of its type, not, anyOf and oneOf.
func (w *walker) othersHold(n *compiled, v any) bool {
	report := w.report
	w.report = false
	defer func() { w.report = report }()
	return w.typed(n, v, valueType(v), nil) && (n.not == nil || !w.validOnly(n.not, v, nil)) &&
		(n.anyOf == nil || w.anyOf(n.anyOf, v, nil)) &&
		(n.oneOf == nil || w.oneOf(n.oneOf, v, nil))
}

// discriminated reports whether alternative a is ruled out for v, an
// object, by a property that tells the alternatives apart: one a declares
// with a const or an enum, which v holds with another value.
func (w *walker) discriminated(a *compiled, v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for a != nil {
		for _, i := range a.discriminators {
			p := &a.props[i]
			if val, has := obj[p.name]; has && !w.validOnly(p.node, val, nil) {
				return true
			}
		}
		if a.legacyRef {
			return false
		}
		a = a.ref
	}
	return false
}
