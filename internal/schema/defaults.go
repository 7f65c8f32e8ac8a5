package schema

// Defaults and absent nulls, applied to the decoded arguments before they
// are validated (see Validator.CheckJSON). Both descend through the
// keywords whose schema is known to apply to a part of the value:
// properties, prefixItems, items, $ref and allOf; not anyOf, oneOf or if,
// whose branch is unknown until validation.

// maxDefaultsDepth bounds the descent, which follows $ref and so could loop
// on a schema that refers to itself without consuming input (Loops reports
// such a cycle).
const maxDefaultsDepth = 128

// fillDefaults does the work of Validator.applyDefaults below node n.
func fillDefaults(n *compiled, v any, depth int) {
	if n == nil || depth > maxDefaultsDepth {
		return
	}
	if n.ref != nil {
		fillDefaults(n.ref, v, depth+1)
	}
	for _, sub := range n.allOf {
		fillDefaults(sub, v, depth+1)
	}
	switch v := v.(type) {
	case map[string]any:
		for i := range n.props {
			p := &n.props[i]
			if val, ok := v[p.name]; ok {
				fillDefaults(p.node, val, depth+1)
			} else if d, ok := defaultOf(p.node); ok {
				v[p.name] = deepCopy(d)
			}
		}
	case []any:
		for i, item := range v {
			switch {
			case i < len(n.prefixItems):
				fillDefaults(n.prefixItems[i], item, depth+1)
			case n.items != nil:
				fillDefaults(n.items, item, depth+1)
			}
		}
	}
}

// dropNulls removes, in place, the null values of v's optional properties
// that refuse null (prop.nullAbsent), below node n, descending as
// fillDefaults does. It reports whether it removed any.
func dropNulls(n *compiled, v any, depth int) bool {
	if n == nil || depth > maxDefaultsDepth {
		return false
	}
	dropped := false
	if n.ref != nil {
		dropped = dropNulls(n.ref, v, depth+1)
	}
	for _, sub := range n.allOf {
		dropped = dropNulls(sub, v, depth+1) || dropped
	}
	switch v := v.(type) {
	case map[string]any:
		for i := range n.props {
			p := &n.props[i]
			val, ok := v[p.name]
			switch {
			case !ok:
			case val == nil && p.nullAbsent:
				delete(v, p.name)
				dropped = true
			default:
				dropped = dropNulls(p.node, val, depth+1) || dropped
			}
		}
	case []any:
		for i, item := range v {
			switch {
			case i < len(n.prefixItems):
				dropped = dropNulls(n.prefixItems[i], item, depth+1) || dropped
			case n.items != nil:
				dropped = dropNulls(n.items, item, depth+1) || dropped
			}
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
