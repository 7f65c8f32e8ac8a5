package schema

// unevaluatedProperties and unevaluatedItems, and the record of what the
// other keywords evaluated.

// unevaluated applies unevaluatedProperties and unevaluatedItems to what
// no other keyword evaluated.
func (w *walker) unevaluated(n *compiled, v any, ev *evaluated) bool {
	switch v := v.(type) {
	case map[string]any:
		if n.unevaluatedProperties != nil && !ev.allProps {
			return w.unevaluatedProperties(n.unevaluatedProperties, v, ev)
		}
	case []any:
		if n.unevaluatedItems != nil {
			return w.unevaluatedItems(n.unevaluatedItems, v, ev)
		}
	}
	return true
}

// unevaluatedProperties applies u to the properties of obj not in ev. u
// false refuses each of them as an unrecognized key.
func (w *walker) unevaluatedProperties(u *compiled, obj map[string]any, ev *evaluated) bool {
	ok := true
	for _, k := range sortedKeys(obj, w.report) {
		if ev.hasProp(k) {
			continue
		}
		if u.never {
			w.fail("unevaluatedProperties", unrecognizedMessage(k))
			ok = false
		} else if !w.descend(u, obj[k], segment{name: k, index: -1}) {
			ok = false
		}
		if !ok && !w.report {
			return false
		}
	}
	ev.allProps = true
	return ok
}

// unevaluatedItems applies u to the items of arr not in ev (u false
// refuses each of them).
func (w *walker) unevaluatedItems(u *compiled, arr []any, ev *evaluated) bool {
	ok := true
	for i := range arr {
		if ev.hasItem(i) {
			continue
		}
		if !w.descend(u, arr[i], segment{index: i}) {
			ok = false
			if !w.report {
				return false
			}
		}
	}
	ev.markItems(len(arr))
	return ok
}

// evaluated records what a schema evaluated of an object or array, for
// unevaluatedProperties and unevaluatedItems. Its methods do nothing on a
// nil receiver, so that the walk calls them unconditionally.
type evaluated struct {
	allProps bool
	props    map[string]bool
	items    int // items [0, items) are evaluated
	itemSet  map[int]bool
}

func (e *evaluated) markProp(k string) {
	if e == nil || e.allProps {
		return
	}
	if e.props == nil {
		e.props = map[string]bool{}
	}
	e.props[k] = true
}

func (e *evaluated) hasProp(k string) bool { return e.allProps || e.props[k] }

func (e *evaluated) markItems(n int) {
	if e != nil {
		e.items = max(e.items, n)
	}
}

func (e *evaluated) markItem(i int) {
	if e == nil {
		return
	}
	if e.itemSet == nil {
		e.itemSet = map[int]bool{}
	}
	e.itemSet[i] = true
}

func (e *evaluated) hasItem(i int) bool { return i < e.items || e.itemSet[i] }

func (e *evaluated) merge(o *evaluated) {
	e.allProps = e.allProps || o.allProps
	for k := range o.props {
		e.markProp(k)
	}
	e.items = max(e.items, o.items)
	for i := range o.itemSet {
		e.markItem(i)
	}
}
