package schema

import (
	"fmt"
	"slices"
)

// The walk of the keywords for objects (see walker in check.go).

// object applies the keywords of n for objects to obj.
func (w *walker) object(n *compiled, obj map[string]any, ev *evaluated) bool {
	ok := w.objectSize(n, obj)
	if !ok && !w.report {
		return false
	}
	if w.report {
		ok = w.required(n, obj) && ok
		ok = w.propertiesReport(n, obj, ev) && ok
	} else if !w.properties(n, obj, ev) {
		return false
	}
	if !n.byKeys {
		return ok
	}
	return w.keys(n, obj, ev) && ok
}

// keys applies the keywords that look at which keys obj has:
// dependentRequired, propertyNames and dependentSchemas.
func (w *walker) keys(n *compiled, obj map[string]any, ev *evaluated) bool {
	ok := w.dependentRequired(n, obj)
	if !ok && !w.report {
		return false
	}
	ok = w.propertyNames(n, obj) && ok
	if !ok && !w.report {
		return false
	}
	return w.dependentSchemas(n, obj, ev) && ok
}

// objectSize applies minProperties and maxProperties.
func (w *walker) objectSize(n *compiled, obj map[string]any) bool {
	ok := true
	if n.minProperties >= 0 && len(obj) < n.minProperties {
		w.fail("minProperties", fmt.Sprintf("expected an object with at least %s, received %d", plural(n.minProperties, "property"), len(obj)))
		ok = false
	}
	if n.maxProperties >= 0 && len(obj) > n.maxProperties {
		w.fail("maxProperties", fmt.Sprintf("expected an object with at most %s, received %d", plural(n.maxProperties, "property"), len(obj)))
		ok = false
	}
	return ok
}

// required is the report walk of required (the validity walk of
// properties looks the names up as it goes).
func (w *walker) required(n *compiled, obj map[string]any) bool {
	ok := true
	for _, name := range n.required {
		if _, has := obj[name]; !has {
			w.failAt(name, "required", requiredMessage(name))
			ok = false
		}
	}
	return ok
}

// dependentRequired applies dependentRequired and draft 7's dependencies
// that list names.
func (w *walker) dependentRequired(n *compiled, obj map[string]any) bool {
	ok := true
	for _, d := range n.dependentRequired {
		if _, has := obj[d.name]; !has {
			continue
		}
		for _, m := range d.required {
			if _, has := obj[m]; !has {
				w.failAt(m, d.keyword, fmt.Sprintf("missing property %q, required when %q is present", m, d.name))
				ok = false
				if !w.report {
					return false
				}
			}
		}
	}
	return ok
}

// propertyNames applies propertyNames to the keys of obj.
func (w *walker) propertyNames(n *compiled, obj map[string]any) bool {
	if n.propertyNames == nil {
		return true
	}
	ok := true
	for _, k := range sortedKeys(obj, w.report) {
		if !w.validOnly(n.propertyNames, k, nil) {
			w.fail("propertyNames", fmt.Sprintf("invalid property name %q", k))
			ok = false
			if !w.report {
				return false
			}
		}
	}
	return ok
}

// dependentSchemas applies dependentSchemas and draft 7's dependencies
// that hold schemas.
func (w *walker) dependentSchemas(n *compiled, obj map[string]any, ev *evaluated) bool {
	ok := true
	for _, d := range n.dependentSchemas {
		if _, has := obj[d.name]; has && !w.inPlace(d.node, obj, ev) {
			ok = false
			if !w.report {
				return false
			}
		}
	}
	return ok
}

// properties is the validity walk of properties, patternProperties and
// additionalProperties: declared properties by lookup, those with a const
// or an enum first (they tell the alternatives of a union apart, cheaply),
// and the other keys, when some keyword applies to them, in map order.
func (w *walker) properties(n *compiled, obj map[string]any, ev *evaluated) bool {
	present, ok := w.declaredProperties(n, obj, ev)
	if !ok || !hasAll(obj, n.reqOnly) {
		return false
	}
	if len(n.patternProps) == 0 && (present == len(obj) || n.additional == nil) {
		return true
	}
	return w.keysByPattern(n, obj, ev)
}

// declaredProperties is the validity walk of the declared properties of
// n and of those required: whether they hold, and how many of them obj
// has.
func (w *walker) declaredProperties(n *compiled, obj map[string]any, ev *evaluated) (int, bool) {
	present := 0
	for k := range n.props {
		i := k
		if n.propOrder != nil {
			i = n.propOrder[k]
		}
		p := &n.props[i]
		val, has := obj[p.name]
		if !has {
			if p.required {
				return present, false
			}
			continue
		}
		present++
		if !w.descend(p.node, val, segment{}) {
			return present, false
		}
		ev.markProp(p.name)
	}
	return present, true
}

// hasAll reports whether obj has every key of names.
func hasAll(obj map[string]any, names []string) bool {
	for _, name := range names {
		if _, has := obj[name]; !has {
			return false
		}
	}
	return true
}

// keysByPattern is the validity walk of patternProperties and
// additionalProperties over the keys of obj, in map order.
func (w *walker) keysByPattern(n *compiled, obj map[string]any, ev *evaluated) bool {
	for k, val := range obj {
		matched := n.prop(k) != nil
		for _, pp := range n.patternProps {
			if w.match(pp.re, k) {
				matched = true
				if !w.descend(pp.node, val, segment{}) {
					return false
				}
			}
		}
		if !matched && n.additional != nil {
			matched = true
			if !w.descend(n.additional, val, segment{}) {
				return false
			}
		}
		if matched {
			ev.markProp(k)
		}
	}
	return true
}

// propertiesReport is the report walk of the same keywords, in the order
// of the issue list, stopping early (see walker). The keys that
// additionalProperties false refuses are listed first, all of them: their
// issues sit at the object, before those of any child.
func (w *walker) propertiesReport(n *compiled, obj map[string]any, ev *evaluated) bool {
	var extras []string
	if present := n.presentProps(obj); present < len(obj) {
		extras = appendUndeclared(make([]string, 0, len(obj)-present), n, obj)
	}
	extras, ok := w.refuseExtras(n, extras, ev)
	// Merge the declared properties and the other keys, both sorted.
	i, j := 0, 0
	for i < len(n.props) || j < len(extras) {
		var name string
		var declared *compiled
		if j == len(extras) || (i < len(n.props) && n.props[i].name < extras[j]) {
			name, declared = n.props[i].name, n.props[i].node
			i++
		} else {
			name = extras[j]
			j++
		}
		val, has := obj[name]
		if has && !w.propertyReport(n, name, declared, val, ev) {
			ok = false
			if w.stop() {
				ev.markUnvisited(n.props[i:], extras[j:], n.additional != nil)
				break
			}
		}
	}
	return ok
}

// presentProps counts the declared properties of n that obj has.
func (n *compiled) presentProps(obj map[string]any) int {
	present := 0
	for i := range n.props {
		if _, has := obj[n.props[i].name]; has {
			present++
		}
	}
	return present
}

// appendUndeclared appends to keys the keys of obj that n does not
// declare, sorted.
func appendUndeclared(keys []string, n *compiled, obj map[string]any) []string {
	for k := range obj {
		if n.prop(k) == nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// refuseExtras applies additionalProperties false to extras, the keys n
// does not declare, and returns those a pattern of patternProperties
// matches, which it keeps.
func (w *walker) refuseExtras(n *compiled, extras []string, ev *evaluated) ([]string, bool) {
	if n.additional == nil || !n.additional.never {
		return extras, true
	}
	ok := true
	kept := extras[:0]
	for _, k := range extras {
		if w.matchesPattern(n, k) {
			kept = append(kept, k)
			continue
		}
		w.fail("additionalProperties", unrecognizedMessage(k))
		ev.markProp(k)
		ok = false
	}
	return kept, ok
}

// propertyReport is the report walk of the property name, of value val,
// against the schemas that apply to it: declared, its schema in
// properties (nil for none), those of the patterns it matches, or else
// additionalProperties.
func (w *walker) propertyReport(n *compiled, name string, declared *compiled, val any, ev *evaluated) bool {
	at := segment{name: name, index: -1}
	applied, ok := false, true
	if declared != nil {
		applied = true
		ok = w.descend(declared, val, at)
	}
	for _, pp := range n.patternProps {
		if w.match(pp.re, name) {
			applied = true
			ok = w.descend(pp.node, val, at) && ok
		}
	}
	if !applied && n.additional != nil {
		applied = true
		ok = w.descend(n.additional, val, at)
	}
	if applied {
		ev.markProp(name)
	}
	return ok
}

// markUnvisited marks as evaluated the properties that a stopped report
// walk did not visit: props, and extras when additionalProperties, which
// additional says is present, applies to them.
func (e *evaluated) markUnvisited(props []prop, extras []string, additional bool) {
	if e == nil {
		return
	}
	for _, p := range props {
		e.markProp(p.name)
	}
	if additional {
		for _, k := range extras {
			e.markProp(k)
		}
	}
}

// matchesPattern reports whether some patternProperties pattern of n
// matches k.
func (w *walker) matchesPattern(n *compiled, k string) bool {
	for _, pp := range n.patternProps {
		if w.match(pp.re, k) {
			return true
		}
	}
	return false
}

// sortedKeys returns the keys of obj, sorted when sorted is set.
func sortedKeys(obj map[string]any, sorted bool) []string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	if sorted {
		slices.Sort(keys)
	}
	return keys
}
