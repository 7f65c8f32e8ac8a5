package schema

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
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
	// variant prefixes the issues found within the variant of a
	// discriminated union that the value claimed (see claimedVariant).
	variant string
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
		w.sink.add(Issue{Path: w.issuePath(""), Message: w.variant + message, Keyword: keyword})
	}
}

// failAt records an issue located at the property name of the current
// object (a missing property).
func (w *walker) failAt(name, keyword, message string) {
	if w.report {
		w.sink.add(Issue{Path: w.issuePath(name), Message: w.variant + message, Keyword: keyword})
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

// keywords applies the keywords of n to v. A failed type, const or enum
// ends n's checks.
func (w *walker) keywords(n *compiled, v any, ev *evaluated) bool {
	t := valueType(v)
	switch {
	case t == 0:
		w.fail("type", fmt.Sprintf("value of Go type %T is not JSON", v))
		return false
	case wrongType(n, v, t):
		w.fail("type", typeMessage(n.typeNames, typeName(t)))
		return false
	case n.constRefuses(v):
		w.fail("const", fmt.Sprintf("expected %s, received %s", show(n.constVal), show(v)))
		return false
	case n.enumRefuses(v):
		w.fail("enum", enumMessage(n.enum, v))
		return false
	}
	ev = n.evaluatedBy(ev)
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
	if !n.applies {
		return ok
	}
	return w.applicators(n, v, ev) && ok
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
