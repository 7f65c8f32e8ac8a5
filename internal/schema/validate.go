package schema

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// Issue is one reason a value does not match its schema. Tool dispatch sends
// the list to the client in data.issues of a ValidationError, so a model can
// correct its mistakes in one round. The list is bounded (see [Result]): a
// value can be wrong in as many ways as it has elements.
type Issue struct {
	// Path locates the offending value in the instance: property names
	// (string) and array indices (int); empty (never nil) for the root. For
	// a missing property it ends with the property's name; for an
	// unrecognized key it is the object that holds it (as Zod reports them).
	Path []any `json:"path"`
	// Message is a short sentence for a model, such as
	// `expected string, received number`.
	Message string `json:"message"`
	// Keyword is the JSON Schema keyword that failed: type, required,
	// additionalProperties, minimum, enum, …
	Keyword string `json:"keyword"`
}

// Validator checks JSON values against one schema and reports every issue.
// Build it once per schema (at tool registration) and share it: it is safe
// for concurrent use, and holds only the compiled form of the schema (see
// compile.go), not the caller's.
type Validator struct {
	root *compiled
	// nodes are the compiled nodes, by location.
	nodes []*compiled
	// unordered: the schema has loops the walk does not order, so that
	// they never stop early; unbounded says why the validator is not
	// bounded, "" when it is (see Bounded).
	unordered bool
	unbounded string
	cyclic    bool // some schema reaches itself through $ref
	dynamic   bool // the schema has a $dynamicRef (see dynamic.go)
	// probes: the schema has keywords that the report walk decides by
	// validity walks (anyOf, oneOf, not, if, contains), each of which
	// would walk again what lies below it: that walk memoises from its
	// start.
	probes      bool
	hasDefaults bool
	// nullAbsent: some optional property refuses null, which CheckJSON
	// then takes as the property left out (see dropNulls).
	nullAbsent bool
}

// NewValidator compiles s for validation. It fails when s is not a valid
// 2020-12 schema (an unknown type, a negative length, a pattern that is no
// RE2 regular expression, …), when it refers to a schema outside itself
// (nothing is loaded from the network or the file system), or when a
// declared default does not match its own schema. s is not retained: later
// changes to it do not affect the Validator.
func NewValidator(s *jsonschema.Schema) (*Validator, error) {
	v, err := newValidator(s)
	if err != nil {
		return nil, err
	}
	if err := v.checkDefaults(); err != nil {
		return nil, err
	}
	return v, nil
}

// newValidator is NewValidator without the check of the schema's
// defaults, which is ours: JSON Schema makes default an annotation, and
// the official test suite has schemas whose defaults fail.
func newValidator(s *jsonschema.Schema) (*Validator, error) {
	if s == nil {
		return nil, errors.New("schema: NewValidator: nil schema")
	}
	c, root, err := compile(s)
	if err != nil {
		return nil, fmt.Errorf("schema: compiling schema: %w", err)
	}
	v := &Validator{root: root, nodes: sortedNodes(c.nodes), unordered: c.unordered, unbounded: c.unbounded,
		dynamic: c.dynamic, hasDefaults: c.defaults}
	v.cyclic = hasCycle(root)
	for _, n := range v.nodes {
		v.probes = v.probes || n.anyOf != nil || n.oneOf != nil || n.not != nil || n.ifN != nil || n.contains != nil
		for i := range n.props {
			p := &n.props[i]
			if !p.required && !v.valid(p.node, nil) {
				p.nullAbsent, v.nullAbsent = true, true
			}
		}
	}
	return v, nil
}

// checkDefaults fails when a declared default does not match its own
// schema: ValidateJSON fills it in, so every call that leaves the property
// out would fail as if the client were at fault.
func (v *Validator) checkDefaults() error {
	for _, n := range v.nodes {
		if n.hasDefault {
			if issues := v.issuesOf(n, n.defaultVal); issues != nil {
				return fmt.Errorf("schema: the default at %s does not match its schema: %s", n.loc, Summary(issues))
			}
		}
	}
	return nil
}

// sortedNodes lists the compiled nodes by location, so that the first
// error found is always the same.
func sortedNodes[K comparable](m map[K]*compiled) []*compiled {
	out := make([]*compiled, 0, len(m))
	for _, n := range m {
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b *compiled) int { return strings.Compare(a.loc, b.loc) })
	return out
}

// hasCycle reports whether some node applies itself to the same value
// through a chain of $ref, allOf, anyOf, … (without descending into a
// property or an item). Only then does the walk watch for loops.
func hasCycle(root *compiled) bool {
	const (
		unseen = iota
		active
		done
	)
	state := map[*compiled]int{}
	var inPlace func(*compiled) bool
	visit := func(n *compiled) bool {
		if n == nil || state[n] == done {
			return false
		}
		if state[n] == active {
			return true
		}
		state[n] = active
		if inPlace(n) {
			return true
		}
		state[n] = done
		return false
	}
	inPlace = func(n *compiled) bool {
		for _, x := range append(append(append([]*compiled{n.ref, n.dynamicRef, n.not, n.ifN, n.then, n.elseN}, n.allOf...), n.anyOf...), n.oneOf...) {
			if visit(x) {
				return true
			}
		}
		for _, d := range n.dependentSchemas {
			if visit(d.node) {
				return true
			}
		}
		return false
	}
	// Children start chains of their own.
	seen := map[*compiled]bool{}
	var all func(*compiled) bool
	all = func(n *compiled) bool {
		if n == nil || seen[n] {
			return false
		}
		seen[n] = true
		if visit(n) {
			return true
		}
		for _, x := range children(n) {
			if all(x) {
				return true
			}
		}
		return false
	}
	return all(root)
}

// children lists every node n refers to.
func children(n *compiled) []*compiled {
	out := []*compiled{n.ref, n.dynamicRef, n.items, n.contains, n.unevaluatedItems, n.additional,
		n.propertyNames, n.unevaluatedProperties, n.not, n.ifN, n.then, n.elseN}
	out = append(out, n.prefixItems...)
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	for _, p := range n.props {
		out = append(out, p.node)
	}
	for _, p := range n.patternProps {
		out = append(out, p.node)
	}
	for _, d := range n.dependentSchemas {
		out = append(out, d.node)
	}
	return out
}

// valid reports whether inst, a decoded JSON value, matches n.
func (v *Validator) valid(n *compiled, inst any) bool {
	w := newWalker(v, 1)
	return w.eval(n, inst, nil)
}

// issuesOf lists every issue of inst against n, unbounded: use it only
// where the value is known to be small (a schema's own default).
func (v *Validator) issuesOf(n *compiled, inst any) []Issue {
	if v.valid(n, inst) {
		return nil
	}
	w := newWalker(v, 1)
	w.report, w.sink = true, newSink(-1)
	w.eval(n, inst, nil)
	return sortIssues(w.sink.issues)
}

// Validate returns the issues of [Validator.Check]: the first MaxIssues ways
// instance fails the schema, in order; nil means valid. Use Check to learn
// how many issues were left out.
func (v *Validator) Validate(instance any) []Issue {
	return v.Check(instance).Issues
}

// Check reports how instance fails the schema: its first issues, sorted by
// path, then keyword, then message, and a count of the rest (see [Result]).
// instance is a decoded JSON value (map[string]any, []any, string, float64
// or json.Number, bool, nil); any other Go value, such as a handler's result
// struct or a json.RawMessage, is first encoded to JSON and decoded back.
// Check does not modify instance.
//
// The work of a check grows no faster than the size of the value, whatever
// the schema, when the validator is [Validator.Bounded]: each schema node is
// evaluated at most once on each object or array (see memo.go), so a
// recursive union costs what a plain walk does; numbers are compared and
// hashed by their exact value in work linear in their digits; a keyword
// that costs in proportion to what a cheaper one has already refused is
// skipped: an array with more than maxItems items is not searched for
// duplicates (uniqueItems), a string longer than maxLength is not matched
// against its pattern or format, and the issue list then says only
// maxItems or maxLength. Nor do work and memory grow with the number of
// issues: the loops over array items and object properties stop once
// MaxIssues issues are certain (see [Result.Stopped]), so a million
// mistyped array elements cost what a hundred do. This holds for every
// schema that [Input], [Output] and [Params] infer whose patterns are
// bounded; a hand-written schema that uses patternProperties,
// propertyNames, contains, dependentSchemas, a non-boolean
// unevaluatedProperties or unevaluatedItems, or a draft other than
// 2020-12 is validated in full, its list capped all the same. A value
// nested more than MaxDepth levels deep fails with one issue without being
// validated.
func (v *Validator) Check(instance any) Result {
	depth, size, isJSON := jsonShape(instance)
	if !isJSON {
		b, err := json.Marshal(instance)
		if err != nil {
			return single("value cannot be encoded as JSON: "+err.Error(), "type")
		}
		if depth, size = rawShape(b); depth <= MaxDepth {
			if instance, err = decodeJSON(b); err != nil {
				return single("value cannot be encoded as JSON: "+err.Error(), "type")
			}
		}
	}
	if depth > MaxDepth {
		return tooDeep()
	}
	res, _, _ := v.check(context.Background(), instance, size)
	return res
}

// check validates inst, a decoded JSON value of size values at most
// MaxDepth levels deep: a validity walk first, which allocates nothing,
// and the report walk only when it fails. It returns the work the walks
// did (see walker), and ctx's error when ctx ended first.
func (v *Validator) check(ctx context.Context, inst any, size int) (Result, int, error) {
	w := newWalker(v, size)
	if ctx.Done() != nil {
		w.ctx = ctx
	}
	if w.eval(v.root, inst, nil) {
		return Result{}, w.work, nil
	}
	if w.err != nil {
		return Result{}, w.work, w.err
	}
	// The report walk starts where the validity walk stopped: its
	// memo, its count of work, its context.
	w.report, w.sink = true, newSink(MaxIssues)
	w.stops = !v.unordered
	if v.probes && w.memo == nil {
		w.memo = map[memoKey]uint8{}
	}
	w.eval(v.root, inst, nil)
	if w.err != nil {
		return Result{}, w.work, w.err
	}
	return w.sink.result(), w.work, nil
}

// single is the result of one issue at the root.
func single(message, keyword string) Result {
	return shape([]Issue{{Path: []any{}, Message: message, Keyword: keyword}}, 0, false)
}

// tooDeep is the result of a value nested more than MaxDepth levels deep.
func tooDeep() Result {
	return single(fmt.Sprintf("value is nested more than %d levels deep", MaxDepth), "")
}

// applyDefaults fills in, in place, the schema's defaults for absent
// properties of instance, a decoded JSON value, so that a handler sees
// {"fail": true} when the schema says `"fail": {"type": "boolean",
// "default": true}` and the caller left it out. It descends into present
// objects and arrays through properties, items, prefixItems, $ref and allOf
// (not through anyOf, oneOf or if, whose branch is unknown), and never
// creates an absent object to hold a nested default. A default also fills a
// required property. Defaults are copied, never shared between instances.
func (v *Validator) applyDefaults(instance any, size int) {
	if v.hasDefaults {
		d := newDefaultsWalk(size)
		d.fillDefaults(v.root, instance, 0)
	}
}

// ValidateJSON is the one call dispatch makes per request: it decodes data
// (empty data or null, an absent arguments field, counts as {}), removes the
// nulls of optional properties that refuse null, fills in the schema's
// defaults for absent properties and validates the result. It returns the
// arguments to decode into the handler's type: data itself when nothing was
// removed or filled in, else the value re-encoded. Malformed JSON is
// returned as err; schema violations as issues, with no arguments.
//
// A null sent for an optional property is taken as the property left out,
// when its schema does not accept null: [Input] publishes one type per
// property, optionality through required, and a client that still sends
// null for "no value" (as clients that make every property required and
// nullable do) gets what encoding/json would give the handler anyway, the
// zero value. A default then fills it in. A null for a required property,
// or where the schema accepts null, is kept and validated. Like defaults,
// this reaches objects through properties, items, prefixItems, $ref and
// allOf.
//
// A default (jsonschema-go has no tag for it: set Default on an inferred
// property) fills an absent property, required or not, in objects reached
// through properties, items, prefixItems, $ref and allOf; it never creates
// an absent parent object. Numbers are decoded as json.Number, so large
// integers survive the round trip.
func (v *Validator) ValidateJSON(data []byte) (json.RawMessage, []Issue, error) {
	args, res, err := v.CheckJSON(data)
	return args, res.Issues, err
}

// CheckJSON is [Validator.ValidateJSON] with the whole [Result]: the first
// issues and a count of the rest. Decoding data takes time and memory in
// proportion to its size; validating it does not grow faster (see
// [Validator.Check]). JSON nested more than MaxDepth levels deep is one
// issue, found before it is decoded.
func (v *Validator) CheckJSON(data []byte) (json.RawMessage, Result, error) {
	return v.CheckJSONContext(context.Background(), data)
}

// CheckJSONContext is [Validator.CheckJSON] for a call: once ctx ends (the
// client went away, the call timed out), the validation stops within a few
// microseconds of work and returns ctx's error as it is, and no Result.
func (v *Validator) CheckJSONContext(ctx context.Context, data []byte) (json.RawMessage, Result, error) {
	args, res, _, err := v.checkJSON(ctx, data)
	return args, res, err
}

// checkJSON is CheckJSONContext, which also returns the work of the walks.
func (v *Validator) checkJSON(ctx context.Context, data []byte) (json.RawMessage, Result, int, error) {
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || string(trimmed) == "null" {
		data = []byte("{}")
	}
	depth, size := rawShape(data)
	if depth > MaxDepth {
		// Checked on the bytes, before decoding, which has a limit of
		// its own (10,000 levels) and would report a syntax error.
		return nil, tooDeep(), 0, nil
	}
	value, err := decodeJSON(data)
	if err != nil {
		return nil, Result{}, 0, fmt.Errorf("schema: decoding JSON: %w", err)
	}
	d := newDefaultsWalk(size)
	dropped := v.nullAbsent && d.dropNulls(v.root, value, 0)
	v.applyDefaults(value, size)
	res, work, err := v.check(ctx, value, size)
	if err != nil || !res.Valid() {
		return nil, res, work, err
	}
	if !v.hasDefaults && !dropped {
		return data, Result{}, work, nil
	}
	out, err := json.Marshal(value)
	if err != nil {
		return nil, Result{}, work, fmt.Errorf("schema: encoding arguments: %w", err)
	}
	return out, Result{}, work, nil
}

// Summary is the one-line message of a validation failure with these
// issues, in the format of [Result.Summary] (`Validation failed` when there
// is none). It counts the issues of the list only; Result.Summary also
// counts those left out.
func Summary(issues []Issue) string {
	return summarize(issues, len(issues), false)
}

// compareIssues orders issues by path, then keyword, then message.
func compareIssues(a, b Issue) int {
	for i := range min(len(a.Path), len(b.Path)) {
		if c := compareSegments(a.Path[i], b.Path[i]); c != 0 {
			return c
		}
	}
	return cmp.Or(
		cmp.Compare(len(a.Path), len(b.Path)),
		strings.Compare(a.Keyword, b.Keyword),
		strings.Compare(a.Message, b.Message))
}

// compareSegments orders indices numerically, names lexically, indices first.
func compareSegments(a, b any) int {
	ai, aIsInt := a.(int)
	bi, bIsInt := b.(int)
	switch {
	case aIsInt && bIsInt:
		return cmp.Compare(ai, bi)
	case aIsInt:
		return -1
	case bIsInt:
		return 1
	}
	as, _ := a.(string)
	bs, _ := b.(string)
	return strings.Compare(as, bs)
}

// typeMessage is `expected <types>, received <type>`, null listed last.
func typeMessage(want []string, got string) string {
	w := slices.Clone(want)
	slices.SortStableFunc(w, func(a, b string) int {
		return cmp.Compare(boolInt(a == "null"), boolInt(b == "null"))
	})
	w = slices.Compact(w)
	return fmt.Sprintf("expected %s, received %s", strings.Join(w, " or "), got)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return strconv.Itoa(n) + " " + noun[:len(noun)-1] + "ies"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// show renders a value as JSON, shortened to keep messages one-line.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const maxRunes = 40
	if utf8.RuneCount(b) <= maxRunes {
		return string(b)
	}
	r := []rune(string(b))
	return string(r[:maxRunes]) + "…"
}

// Bounded reports whether the validator bounds its work for any value: it
// grows no faster than the value's size, by a factor that the schema's
// size alone sets (see [Validator.Check]), and its loops stop at
// MaxIssues. Schemas inferred from Go types do, unless a pattern tag is
// too costly. A schema is not bounded when it uses a keyword whose loop the
// walk does not order (patternProperties, propertyNames, contains,
// dependentSchemas, dependencies, a non-boolean unevaluatedProperties or
// unevaluatedItems, another draft's $schema), which is validated in full,
// or a pattern whose matcher may keep more than maxLiveThreads threads live
// at once, each stepped per character (see pattern.go). Unbounded
// says why.
func (v *Validator) Bounded() bool { return v.unbounded == "" }

// Unbounded says why the validator is not [Validator.Bounded], naming the
// first keyword that makes it so and its location in the schema; it is ""
// for a bounded one.
func (v *Validator) Unbounded() string { return v.unbounded }

// Loops reports a schema that cannot validate even an empty object because
// its references go round in a circle ({"allOf": [{"$ref": "#"}]}), which
// would otherwise fail every call as if the input were at fault.
func (v *Validator) Loops() error {
	if !v.cyclic {
		return nil
	}
	w := newWalker(v, 1)
	w.eval(v.root, map[string]any{}, nil)
	if w.cycle == "" {
		return nil
	}
	return fmt.Errorf("schema: its references loop: %s", w.cycle)
}
