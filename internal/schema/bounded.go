package schema

import (
	"bytes"
	"encoding/json"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	sv "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/message"
)

// Bounded validation.
//
// santhosh-tekuri/jsonschema builds the whole error tree of a value: a
// million mistyped array elements are a million errors, each with a copy of
// its path, half a gigabyte in all, before the first issue is listed. It
// has no option to stop early, but its loops over a value's children are
// few: "properties", "additionalProperties" and "items" (schemas inferred
// from Go types use no other). A second copy of the schema renames those
// three keywords to ones of a vocabulary of ours, so that the validator
// skips them and calls our extension instead, which runs the same loops
// through the validator (same errors, same annotations for unevaluated*)
// but can stop.
//
// When to stop: the loops visit children in the order of the issue list
// (array indices ascending, property names sorted), and count the issues
// of each child they finish, by the collector's own rules (see weight). So
// the count is of issues that sort before every child not yet visited; once
// it reaches MaxIssues, the rest of the value cannot reach the list, and a
// loop stops after its next failed child (never before a failure, so that
// validity is unchanged). It then adds a stopKind error, which tells the
// collector that more issues may exist. The count is per validation, so
// each validation borrows its own compiled copy.

// The renamed keywords. A schema that already uses them is not rewritten.
const (
	kwProperties = "x-mcpcore-properties"
	kwAdditional = "x-mcpcore-additionalProperties"
	kwItems      = "x-mcpcore-items"
	vocabURL     = "mem://mcpcore/vocab/bounded-loops"
	draft2020    = "https://json-schema.org/draft/2020-12/schema"
)

// boundedSchema is the rewritten schema, compiled once per concurrent
// validation. The idle copies wait in a free list rather than a sync.Pool:
// a pool drops its items at garbage collection and misses those another P
// holds, and a miss costs a compilation (0.3 ms for a small schema), which
// a quiet server would pay on most calls.
type boundedSchema struct {
	doc      []byte // the rewritten document, decoded afresh for each compilation
	needEval bool   // see walkState.needEval
	mu       sync.Mutex
	free     []*boundedCopy
}

// boundedCopy is one compiled copy and the state of the validation using it.
type boundedCopy struct {
	schema *sv.Schema
	walk   *walkState
}

// walkState is the state of one bounded validation.
type walkState struct {
	// found counts the issues of the children the loops have finished, in
	// the order of the issue list.
	found int
	// needEval is set when the schema uses unevaluatedProperties or
	// unevaluatedItems: a stopped loop must then still mark the children it
	// skipped as evaluated, as the loop it replaces would have.
	needEval bool
}

// newBoundedSchema returns the bounded form of doc, a decoded schema
// document, or nil when it has none: doc uses a keyword whose loop the
// bounded walk does not control (see rewriteDoc), or has no loop to bound.
// uncontrolled reports that doc has loops the bounded walk does not
// control, so that its validation is unbounded.
func newBoundedSchema(doc any) (bs *boundedSchema, uncontrolled bool, err error) {
	rw := rewriter{ok: true}
	out := rw.schema(doc)
	if !rw.ok || !rw.renamed {
		return nil, !rw.ok, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, false, err
	}
	bs = &boundedSchema{doc: b, needEval: rw.uneval}
	first, err := bs.compile()
	if err != nil {
		// Not expected: the original compiled. Validate it unbounded
		// rather than refuse a schema for the sake of an optimisation.
		return nil, true, nil
	}
	bs.free = append(bs.free, first)
	return bs, false, nil
}

// compile compiles one copy of the rewritten schema.
func (bs *boundedSchema) compile() (*boundedCopy, error) {
	doc, err := sv.UnmarshalJSON(bytes.NewReader(bs.doc))
	if err != nil {
		return nil, err
	}
	w := &walkState{needEval: bs.needEval}
	c := sv.NewCompiler()
	c.DefaultDraft(sv.Draft2020)
	c.UseLoader(refuseLoader{})
	// Without it, 2020-12 enables only the vocabularies its meta-schema
	// lists, and ours is not one of them.
	c.AssertVocabs()
	c.RegisterVocabulary(&sv.Vocabulary{
		URL: vocabURL,
		Subschemas: []sv.SchemaPath{
			{sv.Prop(kwProperties), sv.AllProp{}},
			{sv.Prop(kwAdditional)},
			{sv.Prop(kwItems)},
		},
		Compile: w.compileLoops,
	})
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(resourceURL)
	if err != nil {
		return nil, err
	}
	return &boundedCopy{schema: s, walk: w}, nil
}

// validate validates inst with a copy of its own, or with fallback when no
// copy can be had.
func (bs *boundedSchema) validate(inst any, fallback *sv.Schema) error {
	c := bs.get()
	if c == nil {
		return fallback.Validate(inst)
	}
	c.walk.found = 0
	err := c.schema.Validate(inst)
	bs.put(c)
	return err
}

// get takes an idle copy, or compiles one when all are in use.
func (bs *boundedSchema) get() *boundedCopy {
	bs.mu.Lock()
	var c *boundedCopy
	if n := len(bs.free); n > 0 {
		c, bs.free[n-1] = bs.free[n-1], nil
		bs.free = bs.free[:n-1]
	}
	bs.mu.Unlock()
	if c == nil {
		c, _ = bs.compile()
	}
	return c
}

// put returns c to the idle copies. It keeps as many as there can be
// validations running at once, about GOMAXPROCS; a burst beyond that
// compiles copies that are then dropped.
func (bs *boundedSchema) put(c *boundedCopy) {
	bs.mu.Lock()
	if len(bs.free) < max(4, 2*runtime.GOMAXPROCS(0)) {
		bs.free = append(bs.free, c)
	}
	bs.mu.Unlock()
}

// rewriter copies a schema document, renaming the looping keywords in
// schema positions (never inside enum, const, default or examples).
type rewriter struct {
	ok      bool // every keyword that loops is under our control
	renamed bool // some keyword was renamed
	uneval  bool // unevaluatedProperties or unevaluatedItems is used
}

// schema rewrites one schema.
func (rw *rewriter) schema(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v // true or false
	}
	out := make(map[string]any, len(m))
	for k, val := range m {
		switch k {
		case "properties":
			out[kwProperties] = rw.schemaMap(val)
			rw.renamed = true
		case "additionalProperties":
			out[kwAdditional] = rw.schema(val)
			rw.renamed = true
		case "items":
			out[kwItems] = rw.schema(val)
			rw.renamed = true
		case "$defs", "definitions":
			out[k] = rw.schemaMap(val)
		case "allOf", "anyOf", "oneOf", "prefixItems":
			out[k] = rw.schemaList(val)
		case "not", "if", "then", "else", "contentSchema":
			out[k] = rw.schema(val)
		case "$schema":
			// Other drafts give items and additionalItems other meanings.
			rw.ok = rw.ok && val == draft2020
			out[k] = val
		case "$ref", "$dynamicRef":
			// A reference into a renamed keyword would dangle.
			s, _ := val.(string)
			rw.ok = rw.ok && !refIntoRenamed(s)
			out[k] = val
		case "unevaluatedProperties", "unevaluatedItems":
			// Their loops stay the validator's: unbounded but harmless
			// when the schema is a boolean, as it visits nothing below.
			_, isBool := val.(bool)
			rw.ok = rw.ok && isBool
			rw.uneval = true
			out[k] = val
		case "patternProperties", "propertyNames", "contains", "dependentSchemas", "dependencies",
			kwProperties, kwAdditional, kwItems:
			// Loops of the validator's (in map order, which would make the
			// stop nondeterministic), or our own names already taken.
			rw.ok = false
			out[k] = val
		default:
			out[k] = val
		}
	}
	return out
}

func (rw *rewriter) schemaMap(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, s := range m {
		out[k] = rw.schema(s)
	}
	return out
}

func (rw *rewriter) schemaList(v any) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = rw.schema(s)
	}
	return out
}

// refIntoRenamed reports whether ref may point into a renamed keyword. It
// errs on the side of yes (a $defs entry named "items" counts).
func refIntoRenamed(ref string) bool {
	_, frag, found := strings.Cut(ref, "#")
	if !found || !strings.HasPrefix(frag, "/") {
		return false // the document or an anchor
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return true
	}
	for tok := range strings.SplitSeq(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch tok {
		case "properties", "additionalProperties", "items":
			return true
		}
	}
	return false
}

// loops is the extension compiled from the renamed keywords of one schema.
type loops struct {
	walk *walkState
	// props are the properties, sorted by name; byName finds them.
	props  []namedSchema
	byName map[string]*sv.Schema
	// additional is nil (absent), a bool, or a *sv.Schema.
	additional any
	items      *sv.Schema
	prefix     int // items apply from this index on, after prefixItems
}

type namedSchema struct {
	name   string
	schema *sv.Schema
}

// compileLoops compiles the renamed keywords of obj, if any.
func (w *walkState) compileLoops(ctx *sv.CompilerContext, obj map[string]any) (sv.SchemaExt, error) {
	l := &loops{walk: w}
	found := false
	if props, ok := obj[kwProperties].(map[string]any); ok {
		found = true
		l.byName = make(map[string]*sv.Schema, len(props))
		for name := range props {
			s := ctx.Enqueue([]string{kwProperties, name})
			l.byName[name] = s
			l.props = append(l.props, namedSchema{name, s})
		}
		slices.SortFunc(l.props, func(a, b namedSchema) int { return strings.Compare(a.name, b.name) })
	}
	if a, ok := obj[kwAdditional]; ok {
		found = true
		if b, isBool := a.(bool); isBool {
			l.additional = b
		} else {
			l.additional = ctx.Enqueue([]string{kwAdditional})
		}
	}
	if _, ok := obj[kwItems]; ok {
		found = true
		l.items = ctx.Enqueue([]string{kwItems})
		if p, ok := obj["prefixItems"].([]any); ok {
			l.prefix = len(p)
		}
	}
	if !found {
		return nil, nil
	}
	return l, nil
}

// Validate runs the loops of properties, additionalProperties and items on
// v, as the validator would, stopping once MaxIssues issues are certain.
func (l *loops) Validate(ctx *sv.ValidatorContext, v any) {
	switch v := v.(type) {
	case map[string]any:
		if l.props != nil || l.additional != nil {
			l.object(ctx, v)
		}
	case []any:
		if l.items != nil {
			l.array(ctx, v)
		}
	}
}

// object validates the properties of obj in sorted order.
func (l *loops) object(ctx *sv.ValidatorContext, obj map[string]any) {
	var extra []string // keys that properties does not name
	if l.additional != nil {
		for k := range obj {
			if _, ok := l.byName[k]; !ok {
				extra = append(extra, k)
			}
		}
	}
	extraSchema, _ := l.additional.(*sv.Schema)
	if extraSchema == nil {
		// additionalProperties is a boolean: true lets the keys be,
		// false lists them all in one error (its order does not matter,
		// the collector sorts them). Either way they are evaluated.
		if l.additional == false && len(extra) > 0 {
			ctx.AddError(&kind.AdditionalProperties{Properties: extra})
		}
		for _, k := range extra {
			ctx.EvaluatedProp(k)
		}
		extra = nil
	} else {
		slices.Sort(extra)
	}
	// Merge the declared properties present and the extra keys, both
	// sorted, into one sorted walk.
	i, j := 0, 0
	for i < len(l.props) || j < len(extra) {
		var name string
		var s *sv.Schema
		if j == len(extra) || (i < len(l.props) && l.props[i].name < extra[j]) {
			name, s = l.props[i].name, l.props[i].schema
			i++
		} else {
			name, s = extra[j], extraSchema
			j++
		}
		val, ok := obj[name]
		if !ok {
			continue
		}
		stop := l.child(ctx, s, val, name)
		ctx.EvaluatedProp(name)
		if stop {
			if l.walk.needEval {
				for _, p := range l.props[i:] {
					ctx.EvaluatedProp(p.name)
				}
				for _, k := range extra[j:] {
					ctx.EvaluatedProp(k)
				}
			}
			ctx.AddError(&stopKind{})
			return
		}
	}
}

// array validates the items of arr from l.prefix on, in order.
func (l *loops) array(ctx *sv.ValidatorContext, arr []any) {
	for i := l.prefix; i < len(arr); i++ {
		stop := l.child(ctx, l.items, arr[i], strconv.Itoa(i))
		ctx.EvaluatedItem(i)
		if stop {
			if l.walk.needEval {
				for k := i + 1; k < len(arr); k++ {
					ctx.EvaluatedItem(k)
				}
			}
			ctx.AddError(&stopKind{})
			return
		}
	}
}

// child validates the child val, at token tok, against s, and reports
// whether the loop must stop: it failed, and the issues found so far reach
// MaxIssues, or only its validity mattered.
func (l *loops) child(ctx *sv.ValidatorContext, s *sv.Schema, val any, tok string) (stop bool) {
	before := l.walk.found
	err := ctx.Validate(s, val, []string{tok})
	// Whatever the loops below counted, the child's own tree says what
	// it adds to the list: it may have been discarded (a failed
	// alternative of anyOf) or summed up (none of anyOf matched).
	l.walk.found = before
	if err == nil {
		return false
	}
	ctx.AddErr(err)
	ve, ok := err.(*sv.ValidationError)
	if !ok || ve.ErrorKind == nil {
		// Inside not or if, the validator wants validity alone and
		// records no detail: one failure is enough.
		return true
	}
	l.walk.found = before + weight(ve)
	return l.walk.found >= MaxIssues
}

// weight is the number of issues the collector lists for ve.
func weight(ve *sv.ValidationError) int {
	c := collector{counting: true}
	c.collect(ve)
	return c.n
}

// stopKind is the error a loop adds when it stops early. It is no issue of
// its own (its loop has failed already): it tells the collector that the
// list may be incomplete.
type stopKind struct{}

// KeywordPath is empty: no keyword failed.
func (*stopKind) KeywordPath() []string { return nil }

// LocalizedString says why validation stopped.
func (*stopKind) LocalizedString(*message.Printer) string {
	return "validation stopped: enough issues found"
}
