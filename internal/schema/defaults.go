package schema

import "reflect"

// Defaults and absent nulls, applied to the decoded arguments before they
// are validated (see Validator.CheckJSON). Both descend through the
// keywords whose schema is known to apply to a part of the value:
// properties, prefixItems, items, $ref and allOf; not anyOf, oneOf or if,
// whose branch is unknown until validation.

// maxInPlaceHops bounds the $ref and allOf followed on one value, which
// could loop on a schema that refers to itself without consuming input
// (Loops reports such a cycle). A descent into a child starts again from
// zero: the depth of the value is bounded by MaxDepth.
const maxInPlaceHops = 128

// defaultsWalk is the state of one descent of fillDefaults or dropNulls.
// A schema that applies a node twice to one value (an allOf naming it
// twice) would double the descent at every level of a recursion; a pair
// (node, object or array) met again has nothing left to do, so once the
// descent has made more visits than a plain one would (as for the walk's
// memo, see newWalker) it records the pairs and skips those it has done.
type defaultsWalk struct {
	visits, after int
	done          map[memoKey]bool
}

func newDefaultsWalk(size int) defaultsWalk {
	return defaultsWalk{after: memoFactor*size + memoSlack}
}

// first reports whether (n, v) has not been visited yet; scalars have
// nothing to fill or drop.
func (d *defaultsWalk) first(n *compiled, v any) bool {
	var key memoKey
	switch x := v.(type) {
	case map[string]any:
		key = memoKey{n: n, p: reflect.ValueOf(v).Pointer(), l: -1}
	case []any:
		if len(x) == 0 {
			return false
		}
		key = memoKey{n: n, p: reflect.ValueOf(v).Pointer(), l: len(x)}
	default:
		return false
	}
	d.visits++
	if d.done == nil {
		if d.visits <= d.after {
			return true
		}
		d.done = map[memoKey]bool{}
	}
	if d.done[key] {
		return false
	}
	d.done[key] = true
	return true
}

// fillDefaults does the work of Validator.applyDefaults below node n.
func (d *defaultsWalk) fillDefaults(n *compiled, v any, hops int) {
	if n == nil || hops > maxInPlaceHops || !d.first(n, v) {
		return
	}
	if n.ref != nil {
		d.fillDefaults(n.ref, v, hops+1)
	}
	for _, sub := range n.allOf {
		d.fillDefaults(sub, v, hops+1)
	}
	switch v := v.(type) {
	case map[string]any:
		for i := range n.props {
			p := &n.props[i]
			if val, ok := v[p.name]; ok {
				d.fillDefaults(p.node, val, 0)
			} else if def, ok := defaultOf(p.node); ok {
				v[p.name] = deepCopy(def)
			}
		}
	case []any:
		for i, item := range v {
			d.fillDefaults(n.itemNode(i), item, 0)
		}
	}
}

// dropNulls removes, in place, the null values of v's optional properties
// that refuse null (prop.nullAbsent), below node n, descending as
// fillDefaults does. It reports whether it removed any.
func (d *defaultsWalk) dropNulls(n *compiled, v any, hops int) bool {
	if n == nil || hops > maxInPlaceHops || !d.first(n, v) {
		return false
	}
	dropped := false
	if n.ref != nil {
		dropped = d.dropNulls(n.ref, v, hops+1)
	}
	for _, sub := range n.allOf {
		dropped = d.dropNulls(sub, v, hops+1) || dropped
	}
	switch v := v.(type) {
	case map[string]any:
		dropped = d.dropNullProps(n, v) || dropped
	case []any:
		for i, item := range v {
			dropped = d.dropNulls(n.itemNode(i), item, 0) || dropped
		}
	}
	return dropped
}

// dropNullProps is dropNulls for the declared properties of obj.
func (d *defaultsWalk) dropNullProps(n *compiled, obj map[string]any) bool {
	dropped := false
	for i := range n.props {
		p := &n.props[i]
		val, ok := obj[p.name]
		switch {
		case !ok:
		case val == nil && p.nullAbsent:
			delete(obj, p.name)
			dropped = true
		default:
			dropped = d.dropNulls(p.node, val, 0) || dropped
		}
	}
	return dropped
}

// defaultOf is the default of n, or of the schema its $ref names.
func defaultOf(n *compiled) (any, bool) {
	if !n.hasDefault && n.ref != nil {
		return n.ref.defaultVal, n.ref.hasDefault
	}
	return n.defaultVal, n.hasDefault
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}
