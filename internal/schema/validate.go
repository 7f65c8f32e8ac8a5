package schema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	sv "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
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
// for concurrent use.
type Validator struct {
	// compiled is the schema as written. It applies defaults, checks them,
	// and validates when bounded cannot.
	compiled *sv.Schema
	// bounded validates with the loops over array items and object
	// properties under our control, so that they stop at MaxIssues; nil
	// when the schema uses a keyword the bounded walk does not support
	// (see rewriteDoc) or has nothing to loop over.
	bounded     *boundedSchema
	unbounded   bool // the schema has loops the bounded walk does not control
	hasDefaults bool
	// nullAbsent holds the schemas of the optional properties that refuse
	// null: CheckJSON takes a null there as the property left out (see
	// dropNulls). Empty when there is none.
	nullAbsent map[*sv.Schema]bool
}

// resourceURL is where the compiled schema lives; it names no real location.
const resourceURL = "mem://mcpcore/schema.json"

// NewValidator compiles s for validation. It fails when s is not a valid
// 2020-12 schema (it is checked against the meta-schema), when it refers to a
// schema outside itself (nothing is loaded from the network or the file
// system), or when a declared default does not match its own schema. s is
// not retained: later changes to it do not affect the Validator.
func NewValidator(s *jsonschema.Schema) (*Validator, error) {
	if s == nil {
		return nil, errors.New("schema: NewValidator: nil schema")
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("schema: marshalling schema: %w", err)
	}
	doc, err := sv.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("schema: decoding schema: %w", err)
	}
	c := sv.NewCompiler()
	c.DefaultDraft(sv.Draft2020)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	compiled, err := c.Compile(resourceURL)
	if err != nil {
		return nil, fmt.Errorf("schema: compiling schema: %w", err)
	}
	v := &Validator{compiled: compiled}
	var bad error
	walkCompiled(compiled, func(sub *sv.Schema) {
		for name, ps := range sub.Properties {
			if !slices.Contains(sub.Required, name) && ps.Validate(nil) != nil {
				if v.nullAbsent == nil {
					v.nullAbsent = map[*sv.Schema]bool{}
				}
				v.nullAbsent[ps] = true
			}
		}
		if sub.Default != nil {
			v.hasDefaults = true
			if err := sub.Validate(*sub.Default); err != nil && bad == nil {
				bad = fmt.Errorf("schema: the default at %s does not match its schema: %s",
					strings.TrimPrefix(sub.Location, resourceURL), describeErr(err, *sub.Default))
			}
		}
	})
	if bad != nil {
		return nil, bad
	}
	if v.bounded, v.unbounded, err = newBoundedSchema(doc); err != nil {
		return nil, err
	}
	return v, nil
}

// refuseLoader keeps validation in memory: the meta-schemas are embedded in
// the validator, and any other schema a $ref names is refused.
type refuseLoader struct{}

// Load refuses every URL.
func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("refusing to load %s: only in-memory schemas are allowed", url)
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
// The work and memory of a check do not grow with the number of issues: the
// loops over array items and object properties stop once MaxIssues issues
// are certain (see [Result.Stopped]), so a million mistyped array elements
// cost what a hundred do. Only walking the valid part of a value, which
// cannot be skipped, grows with its size. This holds for every schema that
// [Input], [Output] and [Params] infer; a hand-written schema that uses
// patternProperties, propertyNames, contains, dependentSchemas, a
// non-boolean unevaluatedProperties or unevaluatedItems, or a draft other
// than 2020-12 is validated in full, its list capped all the same. A value
// nested more than MaxDepth levels deep fails with one issue without being
// validated, because the validator's cost grows with the square of the
// depth.
func (v *Validator) Check(instance any) Result {
	depth, isJSON := jsonDepth(instance, 0)
	if !isJSON {
		b, err := json.Marshal(instance)
		if err != nil {
			return single("value cannot be encoded as JSON: "+err.Error(), "type")
		}
		if depth = rawDepth(b); depth <= MaxDepth {
			if instance, err = sv.UnmarshalJSON(bytes.NewReader(b)); err != nil {
				return single("value cannot be encoded as JSON: "+err.Error(), "type")
			}
		}
	}
	if depth > MaxDepth {
		return tooDeep()
	}
	return v.check(instance)
}

// check validates inst, a decoded JSON value at most MaxDepth levels deep.
func (v *Validator) check(inst any) Result {
	var err error
	if v.bounded != nil {
		err = v.bounded.validate(inst, v.compiled)
	} else {
		err = v.compiled.Validate(inst)
	}
	if err == nil {
		return Result{}
	}
	var ve *sv.ValidationError
	if !errors.As(err, &ve) {
		return single(err.Error(), "")
	}
	return resultOf(ve, inst)
}

// single is the result of one issue at the root.
func single(message, keyword string) Result {
	return shape([]Issue{{Path: []any{}, Message: message, Keyword: keyword}}, 0, false)
}

// tooDeep is the result of a value nested more than MaxDepth levels deep.
func tooDeep() Result {
	return single(fmt.Sprintf("value is nested more than %d levels deep", MaxDepth), "")
}

// issuesOf lists every leaf failure of ve, sorted and without duplicates.
// It is unbounded: use it only where the tree is known to be small (a
// schema's own default), and resultOf elsewhere.
func issuesOf(ve *sv.ValidationError, instance any) []Issue {
	c := collector{root: instance, keep: -1}
	c.collect(ve)
	if len(c.issues) == 0 { // not expected: every failure has a leaf
		return []Issue{{Path: []any{}, Message: "value does not match the schema", Keyword: ""}}
	}
	return sortIssues(c.issues)
}

// resultOf turns the error tree of a failed validation into its Result.
func resultOf(ve *sv.ValidationError, instance any) Result {
	c := collector{root: instance, keep: MaxIssues}
	c.collect(ve)
	if len(c.issues) == 0 { // not expected: every failure has a leaf
		return single("value does not match the schema", "")
	}
	return shape(sortIssues(c.issues), c.dropped, c.stopped)
}

// sortIssues sorts issues in place and removes duplicates, which appear
// when two parts of a schema check the same thing.
func sortIssues(issues []Issue) []Issue {
	slices.SortFunc(issues, compareIssues)
	return slices.CompactFunc(issues, func(a, b Issue) bool { return compareIssues(a, b) == 0 })
}

// applyDefaults fills in, in place, the schema's defaults for absent
// properties of instance, a decoded JSON value, so that a handler sees
// {"fail": true} when the schema says `"fail": {"type": "boolean",
// "default": true}` and the caller left it out. It descends into present
// objects and arrays through properties, items, prefixItems, $ref and allOf
// (not through anyOf, oneOf or if, whose branch is unknown), and never
// creates an absent object to hold a nested default. A default also fills a
// required property. Defaults are copied, never shared between instances.
func (v *Validator) applyDefaults(instance any) {
	if v.hasDefaults {
		fillDefaults(v.compiled, instance, 0)
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
// proportion to its size; validating it does not grow with its number of
// issues (see [Validator.Check]). JSON nested more than MaxDepth levels deep
// is one issue, found before it is decoded.
func (v *Validator) CheckJSON(data []byte) (json.RawMessage, Result, error) {
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || string(trimmed) == "null" {
		data = []byte("{}")
	}
	if rawDepth(data) > MaxDepth {
		// Checked on the bytes, before decoding, which has a limit of
		// its own (10,000 levels) and would report a syntax error.
		return nil, tooDeep(), nil
	}
	value, err := sv.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, Result{}, fmt.Errorf("schema: decoding JSON: %w", err)
	}
	dropped := len(v.nullAbsent) > 0 && dropNulls(v.compiled, value, v.nullAbsent, 0)
	v.applyDefaults(value)
	if res := v.check(value); !res.Valid() {
		return nil, res, nil
	}
	if !v.hasDefaults && !dropped {
		return data, Result{}, nil
	}
	out, err := json.Marshal(value)
	if err != nil {
		return nil, Result{}, fmt.Errorf("schema: encoding arguments: %w", err)
	}
	return out, Result{}, nil
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

// collector turns a santhosh ValidationError tree into leaf issues.
type collector struct {
	root any
	// keep bounds the memory of a collection: issues beyond the first keep
	// (in order) are counted in dropped, not kept; -1 keeps them all.
	keep    int
	issues  []Issue
	dropped int
	// stopped records that a bounded loop stopped early (see stopKind).
	stopped bool
	// counting makes the collector count its issues in n without building
	// them: the bounded loops weigh each failed element this way, by the
	// same rules that list its issues.
	counting bool
	n        int
}

func (c *collector) add(loc []string, extra string, keyword, msg string) {
	if c.counting {
		c.n++
		return
	}
	p := c.path(loc)
	if extra != "" {
		p = append(p, extra)
	}
	c.issues = append(c.issues, Issue{Path: p, Message: msg, Keyword: keyword})
	if c.keep >= 0 && len(c.issues) >= 4*max(c.keep, 1) {
		c.trim()
	}
}

// trim sorts the issues and keeps the first c.keep: the ones it drops can
// never be among the first c.keep of the whole list, so memory stays
// bounded when one error lists a million keys. Trimming at four times
// c.keep keeps the sorting cost per issue logarithmic.
func (c *collector) trim() {
	c.issues = sortIssues(c.issues)
	if len(c.issues) > c.keep {
		c.dropped += len(c.issues) - c.keep
		clear(c.issues[c.keep:])
		c.issues = c.issues[:c.keep]
	}
}

// path converts an instance location to path segments, telling array indices
// from property names by walking the instance.
func (c *collector) path(loc []string) []any {
	p := make([]any, 0, len(loc)+1)
	cur := c.root
	for _, tok := range loc {
		switch v := cur.(type) {
		case []any:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(v) {
				p = append(p, i)
				cur = v[i]
				continue
			}
		case map[string]any:
			p = append(p, tok)
			cur = v[tok]
			continue
		}
		p = append(p, tok)
		cur = nil
	}
	return p
}

func (c *collector) collect(e *sv.ValidationError) {
	loc := e.InstanceLocation
	switch k := e.ErrorKind.(type) {
	case nil:
		// A failure found where only validity mattered (inside not, if):
		// the validator records no detail; it stands for one issue.
		c.add(loc, "", "", "value does not match the schema")
	case *stopKind:
		c.stopped = true
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, cause := range e.Causes {
			c.collect(cause)
		}
	case *kind.AnyOf:
		c.union(e, "anyOf")
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			c.union(e, "oneOf")
			return
		}
		c.add(loc, "", "oneOf", "value matches more than one of the allowed alternatives")
	case *kind.Required:
		if c.counting {
			c.n += len(k.Missing)
			return
		}
		for _, m := range k.Missing {
			c.add(loc, m, "required", fmt.Sprintf("missing required property %q", m))
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			c.add(loc, m, "dependentRequired", fmt.Sprintf("missing property %q, required when %q is present", m, k.Prop))
		}
	case *kind.Dependency:
		for _, m := range k.Missing {
			c.add(loc, m, "dependencies", fmt.Sprintf("missing property %q, required when %q is present", m, k.Prop))
		}
	case *kind.AdditionalProperties:
		if c.counting {
			c.n += len(k.Properties)
			return
		}
		props := slices.Sorted(slices.Values(k.Properties))
		for _, p := range props {
			c.add(loc, "", "additionalProperties", fmt.Sprintf("unrecognized key %q", p))
		}
	case *kind.FalseSchema:
		// unevaluatedProperties: false (see Strict) fails each extra
		// property with the schema false, located at the property.
		for _, kw := range []string{"unevaluatedProperties", "additionalProperties"} {
			if strings.HasSuffix(e.SchemaURL, "/"+kw) && len(loc) > 0 {
				c.add(loc[:len(loc)-1], "", kw, fmt.Sprintf("unrecognized key %q", loc[len(loc)-1]))
				return
			}
		}
		c.add(loc, "", "false", "value not allowed here")
	default:
		if c.counting {
			c.n++
			return
		}
		c.add(loc, "", keywordOf(e.ErrorKind), describe(e.ErrorKind))
	}
}

// union reports a failed anyOf/oneOf. Alternatives that fail only because
// the value has the wrong type are discarded (a nullable object is
// anyOf[null, object]; a string sent there is one type error, not two); if
// one alternative is left its issues are the union's, otherwise the value
// matches none, said once.
func (c *collector) union(e *sv.ValidationError, keyword string) {
	var left []*sv.ValidationError
	var want []string
	got := ""
	for _, cause := range e.Causes {
		if w, g, ok := typeOnly(cause, e.InstanceLocation); ok {
			want = append(want, w...)
			got = g
			continue
		}
		left = append(left, cause)
	}
	switch {
	case len(left) == 1:
		c.collect(left[0])
	case c.counting:
		c.n++
	case len(left) == 0:
		c.add(e.InstanceLocation, "", "type", typeMessage(want, got))
	default:
		c.add(e.InstanceLocation, "", keyword, fmt.Sprintf("value matches none of the %d allowed alternatives", len(e.Causes)))
	}
}

// typeOnly reports whether e fails only on "type" at loc, and with which
// expected and received types.
func typeOnly(e *sv.ValidationError, loc []string) (want []string, got string, ok bool) {
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return k.Want, k.Got, slices.Equal(e.InstanceLocation, loc)
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		if len(e.Causes) == 0 {
			return nil, "", false
		}
		for _, cause := range e.Causes {
			w, g, ok := typeOnly(cause, loc)
			if !ok {
				return nil, "", false
			}
			want, got = append(want, w...), g
		}
		return want, got, true
	}
	return nil, "", false
}

// keywordOf names the keyword of a leaf error kind.
func keywordOf(k sv.ErrorKind) string {
	switch k.(type) {
	case *kind.Not:
		return "not"
	case *kind.InvalidJsonValue:
		return "type"
	case *kind.RefCycle:
		return "$ref"
	}
	if kp := k.KeywordPath(); len(kp) > 0 {
		return kp[0]
	}
	return ""
}

var printer = message.NewPrinter(language.English)

// describe renders the message of a leaf error kind.
func describe(k sv.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return typeMessage(k.Want, k.Got)
	case *kind.Enum:
		const maxShown = 10
		vals := make([]string, 0, min(len(k.Want), maxShown))
		for i, w := range k.Want {
			if i == maxShown {
				vals = append(vals, "…")
				break
			}
			vals = append(vals, show(w))
		}
		return fmt.Sprintf("expected one of %s, received %s", strings.Join(vals, ", "), show(k.Got))
	case *kind.Const:
		return fmt.Sprintf("expected %s, received %s", show(k.Want), show(k.Got))
	case *kind.Format:
		return fmt.Sprintf("expected a string in format %q", k.Want)
	case *kind.Pattern:
		return fmt.Sprintf("expected a string matching the pattern %s", show(k.Want))
	case *kind.MinLength:
		return fmt.Sprintf("expected a string of at least %s, received %d", plural(k.Want, "character"), k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("expected a string of at most %s, received %d", plural(k.Want, "character"), k.Got)
	case *kind.MinItems:
		return fmt.Sprintf("expected an array of at least %s, received %d", plural(k.Want, "item"), k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("expected an array of at most %s, received %d", plural(k.Want, "item"), k.Got)
	case *kind.AdditionalItems:
		return fmt.Sprintf("too many items: %d more than allowed", k.Count)
	case *kind.UniqueItems:
		return fmt.Sprintf("expected unique items, items %d and %d are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.MinProperties:
		return fmt.Sprintf("expected an object with at least %s, received %d", plural(k.Want, "property"), k.Got)
	case *kind.MaxProperties:
		return fmt.Sprintf("expected an object with at most %s, received %d", plural(k.Want, "property"), k.Got)
	case *kind.Minimum:
		return fmt.Sprintf("expected a number >= %s, received %s", rat(k.Want), rat(k.Got))
	case *kind.Maximum:
		return fmt.Sprintf("expected a number <= %s, received %s", rat(k.Want), rat(k.Got))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("expected a number > %s, received %s", rat(k.Want), rat(k.Got))
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf("expected a number < %s, received %s", rat(k.Want), rat(k.Got))
	case *kind.MultipleOf:
		return fmt.Sprintf("expected a multiple of %s, received %s", rat(k.Want), rat(k.Got))
	case *kind.Contains:
		return "expected the array to contain at least one matching item"
	case *kind.MinContains:
		return fmt.Sprintf("expected at least %s, received %d", plural(k.Want, "matching item"), len(k.Got))
	case *kind.MaxContains:
		return fmt.Sprintf("expected at most %s, received %d", plural(k.Want, "matching item"), len(k.Got))
	case *kind.PropertyNames:
		return fmt.Sprintf("invalid property name %q", k.Property)
	case *kind.Not:
		return "value matches a schema it must not match"
	case *kind.InvalidJsonValue:
		return fmt.Sprintf("value of Go type %T is not JSON", k.Value)
	}
	return k.LocalizedString(printer)
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

// rat renders a number as JSON would: integers exactly, others as the
// shortest float.
func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
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

// Bounded reports whether the validator bounds its work for any value (see
// bounded.go). Schemas inferred from Go types always are; a hand-written
// schema that uses a keyword the bounded walk does not cover
// (patternProperties, propertyNames, contains, dependentSchemas, a
// non-boolean unevaluatedProperties, another draft's $schema) is not.
func (v *Validator) Bounded() bool { return !v.unbounded }

// Loops reports a schema that cannot validate even an empty object because
// its references go round in a circle ({"allOf": [{"$ref": "#"}]}), which
// would otherwise fail every call as if the input were at fault.
func (v *Validator) Loops() error {
	err := v.compiled.Validate(map[string]any{})
	var ve *sv.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var cycle error
	var walk func(*sv.ValidationError)
	walk = func(e *sv.ValidationError) {
		if k, ok := e.ErrorKind.(*kind.RefCycle); ok && cycle == nil {
			cycle = fmt.Errorf("schema: its references loop: %s and %s resolve to each other", k.KeywordLocation1, k.KeywordLocation2)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return cycle
}
