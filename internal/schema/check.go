package schema

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"unicode/utf8"
)

// The walk.
//
// One walk validates a value against a node. It runs in one of two modes:
//
//   - validity (report unset): the answer alone, returned at the first
//     failure without building anything. Check runs it first, so a valid
//     value, the common case, costs one walk and no allocation;
//
//   - report: every issue, in a sink. It follows JSON Schema's evaluation
//     as the issue list needs it: a failed "type", "const" or "enum" ends
//     the schema's checks (nothing else is said of a value of the wrong
//     type); "not" and "if" are walked for validity only; a failed anyOf
//     or oneOf is judged from its alternatives (see unionFailed).
//
// The loops over object properties and array items are ours, so they stop
// early. They visit children in the order of the issue list (property
// names sorted, indices ascending) and add each failed child's issues to
// found; once found reaches MaxIssues, no later child can reach the list,
// and the loop stops after that failed child (never before a failure, so
// validity is unchanged), marking the Result as Stopped. found counts only
// the issues of finished children, which sort before every child not yet
// visited, so the first MaxIssues issues are exactly those of a full walk
// for schemas inferred from Go types. A hand-written schema whose loops the
// walk does not order (patternProperties, propertyNames, contains, …; see
// Validator.Bounded) is walked in full, its list capped all the same.
type walker struct {
	v      *Validator
	report bool
	sink   *sink
	path   []segment
	found  int
	stops  bool // the loops may stop early
	// chain holds the nodes applied in place to the current value (by
	// $ref, allOf, …), from chainStart on, when the schema has cycles: a
	// node met twice there loops without consuming input.
	chain      []*compiled
	chainStart int
	cycle      string // the first loop found, for Loops
	loops      int    // loops met, so that no result computed through one is memoised

	// ctx, when not nil, ends the walk: it is looked at every
	// ctxEvery evaluations, and once it has ended err is set and every
	// evaluation fails at once.
	ctx context.Context
	err error
	// evals counts the evaluations of a node; work adds to them the other
	// costs that grow with the input (see spend): the measure of the tests
	// and of FuzzValidationWork.
	evals, work int
	// memoAfter is the number of evaluations after which memo records
	// the verdict of every (node, object or array) pair evaluated (see
	// memoized): a schema that applies a node to the same value more than
	// once (a union tried branch by branch, an allOf naming one schema
	// twice) then pays each pair once, not once per path, whose number can
	// double at every level of a recursion.
	memoAfter int
	memo      map[memoKey]uint8
	// scope is the dynamic scope, for $dynamicRef: the schema resources
	// the walk has entered, outermost first (nil when the schema has no
	// $dynamicRef).
	scope *scopeNode
	// hashSeed seeds the hashes of uniqueItems, one per walk; hashes
	// holds the hash of each array or object hashed within an item.
	hashSeed maphash.Seed
	hashes   map[memoKey]uint64
}

// ctxEvery is how many evaluations go between two looks at the context.
const ctxEvery = 1024

// newWalker is a walker of v for a value of size nodes (objects, arrays and
// scalars).
func newWalker(v *Validator, size int) walker {
	w := walker{v: v, memoAfter: memoFactor*size + memoSlack}
	if v.dynamic {
		w.scope = &scopeNode{}
	}
	return w
}

// A walk memoises once it has made memoFactor evaluations per node of the
// value, and memoSlack more: a schema that applies each node once or a few
// times, as every inferred one does, never gets there, and walks without
// allocating.
const (
	memoFactor = 4
	memoSlack  = 256
)

// segment is one step of the instance path: a property name, or an index
// when index >= 0.
type segment struct {
	name  string
	index int
}

// issuePath returns the current path as Issue.Path wants it, with name
// appended when not empty.
func (w *walker) issuePath(name string) []any {
	p := make([]any, len(w.path), len(w.path)+1)
	for i, s := range w.path {
		if s.index >= 0 {
			p[i] = s.index
		} else {
			p[i] = s.name
		}
	}
	if name != "" {
		p = append(p, name)
	}
	return p
}

// fail records an issue at the current path, in report mode.
func (w *walker) fail(keyword, message string) {
	if w.report {
		w.sink.add(Issue{Path: w.issuePath(""), Message: message, Keyword: keyword})
	}
}

// failAt records an issue located at the property name of the current
// object (a missing property).
func (w *walker) failAt(name, keyword, message string) {
	if w.report {
		w.sink.add(Issue{Path: w.issuePath(name), Message: message, Keyword: keyword})
	}
}

// valueType is the JSON type of v, 0 when v is no decoded JSON value.
func valueType(v any) typeSet {
	switch v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case map[string]any:
		return tObject
	case []any:
		return tArray
	case string:
		return tString
	case float64, json.Number,
		int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32:
		// Go numbers reach the walk only in a value built by hand (tests,
		// Check's callers use decoded JSON): they are numbers all the same.
		return tNumber
	}
	return 0
}

// eval walks v against n and reports whether it is valid. ev, when not
// nil, receives the properties and items n evaluates (for unevaluated*).
func (w *walker) eval(n *compiled, v any, ev *evaluated) bool {
	if !w.tick() {
		return false
	}
	if n.never {
		w.fail("false", "value not allowed here")
		return false
	}
	if w.v.cyclic {
		for i := len(w.chain) - 1; i >= w.chainStart; i-- {
			if w.chain[i] == n {
				if w.cycle == "" {
					w.cycle = fmt.Sprintf("%s leads back to %s without consuming input", w.chain[len(w.chain)-1].loc, n.loc)
				}
				w.loops++
				w.fail("$ref", "the schema's references loop: "+w.cycle)
				return false
			}
		}
		w.chain = append(w.chain, n)
		defer func() { w.chain = w.chain[:len(w.chain)-1] }()
	}
	if w.scope != nil {
		outer := w.scope
		w.scope = outer.enter(n.res)
		defer func() { w.scope = outer }()
	}
	if w.memo == nil && w.evals > w.memoAfter {
		w.memo = map[memoKey]uint8{}
	}
	if w.memo != nil && ev == nil {
		if key, ok := w.memoKey(n, v); ok {
			return w.memoized(key, n, v)
		}
	}
	return w.keywords(n, v, ev)
}

// tick counts an evaluation, looks at the context every ctxEvery of them,
// and reports whether the walk goes on.
func (w *walker) tick() bool {
	w.evals++
	w.work++
	if w.ctx != nil && w.evals%ctxEvery == 0 && w.err == nil {
		w.err = w.ctx.Err()
	}
	return w.err == nil
}

// spend counts units of work other than evaluations: values hashed or
// compared, the steps a pattern may take.
func (w *walker) spend(units int) { w.work += units }

// keywords applies the keywords of n to v.
func (w *walker) keywords(n *compiled, v any, ev *evaluated) bool {
	t := valueType(v)
	if !w.admits(n, v, t) {
		return false
	}
	if ev == nil && n.usesUnevaluated() {
		ev = &evaluated{}
	}
	ok := true
	if n.ref != nil {
		ok = w.inPlace(n.ref, v, ev)
		if n.legacyRef || (!ok && !w.report) {
			return ok
		}
	}
	ok = w.typed(n, v, t, ev) && ok
	if !ok && !w.report {
		return false
	}
	return w.applicators(n, v, ev) && ok
}

// admits checks v, of type t, against what ends n's checks when it fails:
// v is JSON, of a type of n, n's const, one of n's enum.
func (w *walker) admits(n *compiled, v any, t typeSet) bool {
	switch {
	case t == 0:
		w.fail("type", fmt.Sprintf("value of Go type %T is not JSON", v))
	case wrongType(n, v, t):
		w.fail("type", typeMessage(n.typeNames, typeName(t)))
	case n.constRefuses(v):
		w.fail("const", fmt.Sprintf("expected %s, received %s", show(n.constVal), show(v)))
	case n.enumRefuses(v):
		w.fail("enum", enumMessage(n.enum, v))
	default:
		return true
	}
	return false
}

// typed applies the keywords of n that apply to v's type, t.
func (w *walker) typed(n *compiled, v any, t typeSet, ev *evaluated) bool {
	switch v := v.(type) {
	case map[string]any:
		return w.object(n, v, ev)
	case []any:
		return w.array(n, v, ev)
	case string:
		return w.string(n, v)
	}
	return t != tNumber || w.number(n, v)
}

// constRefuses reports whether n has a const other than v.
func (n *compiled) constRefuses(v any) bool {
	return n.hasConst && !equalValues(v, n.constVal)
}

// enumRefuses reports whether n has an enum without v.
func (n *compiled) enumRefuses(v any) bool {
	return n.enum != nil && !slices.ContainsFunc(n.enum, func(e any) bool { return equalValues(v, e) })
}

// wrongType reports whether v, of type t, fails n's type.
func wrongType(n *compiled, v any, t typeSet) bool {
	return n.types != 0 && n.types&t == 0 && !(n.types&tInteger != 0 && t == tNumber && isInteger(v))
}

// inPlace walks v against n, a schema applied to the same value, and
// merges its evaluated properties and items into ev when it is valid.
func (w *walker) inPlace(n *compiled, v any, ev *evaluated) bool {
	if ev == nil {
		return w.eval(n, v, nil)
	}
	var sub evaluated
	ok := w.eval(n, v, &sub)
	if ok {
		ev.merge(&sub)
	}
	return ok
}

// validOnly walks v against n for validity alone (inside not and if).
func (w *walker) validOnly(n *compiled, v any, ev *evaluated) bool {
	report := w.report
	w.report = false
	ok := w.inPlace(n, v, ev)
	w.report = report
	return ok
}

// descend walks a child value of the current one, at segment s, and keeps
// found: whatever the loops below counted, what the child adds to the list
// is its own issues (an alternative of anyOf may have been discarded, or
// summed up).
func (w *walker) descend(n *compiled, v any, s segment) bool {
	if !w.report {
		start := w.chainStart
		w.chainStart = len(w.chain)
		ok := w.eval(n, v, nil)
		w.chainStart = start
		return ok
	}
	w.path = append(w.path, s)
	start := w.chainStart
	w.chainStart = len(w.chain)
	before, added := w.found, w.sink.n
	ok := w.eval(n, v, nil)
	w.found = before
	if !ok {
		w.found += w.sink.n - added
	}
	w.chainStart = start
	w.path = w.path[:len(w.path)-1]
	return ok
}

// stop reports, after a failed child, whether its loop must stop: only
// validity matters, or the list is certain to be full.
func (w *walker) stop() bool {
	if !w.report {
		return true
	}
	if w.stops && w.found >= MaxIssues {
		w.sink.stopped = true
		return true
	}
	return false
}

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
	ok = w.dependentRequired(n, obj) && ok
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

func (w *walker) string(n *compiled, s string) bool {
	ok := true
	if n.minLength >= 0 || n.maxLength >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLength >= 0 && l < n.minLength {
			w.fail("minLength", n.message("minLength", fmt.Sprintf("expected a string of at least %s, received %d", plural(n.minLength, "character"), l)))
			ok = false
		}
		if n.maxLength >= 0 && l > n.maxLength {
			w.fail("maxLength", n.message("maxLength", fmt.Sprintf("expected a string of at most %s, received %d", plural(n.maxLength, "character"), l)))
			// A string already too long is not matched against the
			// pattern or the format, whose cost grows with its length
			// (see Check).
			return false
		}
	}
	if n.pattern != nil && (ok || w.report) && !w.match(n.pattern, s) {
		w.fail("pattern", n.message("pattern", "expected a string matching the pattern "+show(n.pattern.String())))
		ok = false
	}
	if n.format != nil && (ok || w.report) && !n.format(s) {
		w.fail("format", n.message("format", "expected a string in the format "+show(n.formatName)))
		ok = false
	}
	return ok
}

func (w *walker) number(n *compiled, v any) bool {
	ok := true
	check := func(b *bound, failed func(int) bool, keyword, op string) {
		if b != nil && (ok || w.report) && failed(compareBound(v, b)) {
			w.fail(keyword, n.message(keyword, fmt.Sprintf("expected a number %s %s, received %s", op, formatNumber(b), formatNumber(v))))
			ok = false
		}
	}
	check(n.minimum, func(c int) bool { return c < 0 }, "minimum", ">=")
	check(n.maximum, func(c int) bool { return c > 0 }, "maximum", "<=")
	check(n.exclusiveMinimum, func(c int) bool { return c <= 0 }, "exclusiveMinimum", ">")
	check(n.exclusiveMaximum, func(c int) bool { return c >= 0 }, "exclusiveMaximum", "<")
	if n.multipleOf != nil && (ok || w.report) && !multipleOf(v, n.multipleOf) {
		w.fail("multipleOf", n.message("multipleOf", fmt.Sprintf("expected a multiple of %s, received %s", formatNumber(n.multipleOf), formatNumber(v))))
		ok = false
	}
	return ok
}

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
