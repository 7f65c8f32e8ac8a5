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
// the full list to the client in data.issues of a ValidationError, so a model
// can correct all its mistakes in one round.
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
	compiled    *sv.Schema
	hasDefaults bool
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
	return v, nil
}

// refuseLoader keeps validation in memory: the meta-schemas are embedded in
// the validator, and any other schema a $ref names is refused.
type refuseLoader struct{}

// Load refuses every URL.
func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("refusing to load %s: only in-memory schemas are allowed", url)
}

// Validate reports every way instance fails the schema, sorted by path, then
// keyword, then message; nil means valid. instance is a decoded JSON value
// (map[string]any, []any, string, float64 or json.Number, bool, nil); any
// other Go value, such as a handler's result struct or a json.RawMessage, is
// first encoded to JSON and decoded back. Validate does not modify instance.
func (v *Validator) Validate(instance any) []Issue {
	inst, err := jsonValue(instance)
	if err != nil {
		return []Issue{{Path: []any{}, Message: "value cannot be encoded as JSON: " + err.Error(), Keyword: "type"}}
	}
	err = v.compiled.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *sv.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Path: []any{}, Message: err.Error(), Keyword: ""}}
	}
	return issuesOf(ve, inst)
}

// issuesOf lists the leaf failures of ve, sorted and without duplicates.
func issuesOf(ve *sv.ValidationError, instance any) []Issue {
	c := collector{root: instance}
	c.collect(ve)
	if len(c.issues) == 0 { // not expected: every failure has a leaf
		return []Issue{{Path: []any{}, Message: "value does not match the schema", Keyword: ""}}
	}
	slices.SortFunc(c.issues, compareIssues)
	return slices.CompactFunc(c.issues, func(a, b Issue) bool { return compareIssues(a, b) == 0 })
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
// (empty data or null, an absent arguments field, counts as {}), fills in the
// schema's defaults for absent properties and validates the result. It
// returns the arguments to decode into the handler's type: data itself when
// the schema declares no default, else the value re-encoded with its
// defaults. Malformed JSON is returned as err; schema violations as issues,
// with no arguments.
//
// A default (jsonschema-go has no tag for it: set Default on an inferred
// property) fills an absent property, required or not, in objects reached
// through properties, items, prefixItems, $ref and allOf; it never creates
// an absent parent object. Numbers are decoded as json.Number, so large
// integers survive the round trip.
func (v *Validator) ValidateJSON(data []byte) (json.RawMessage, []Issue, error) {
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || string(trimmed) == "null" {
		data = []byte("{}")
	}
	value, err := sv.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("schema: decoding JSON: %w", err)
	}
	v.applyDefaults(value)
	if issues := v.Validate(value); issues != nil {
		return nil, issues, nil
	}
	if !v.hasDefaults {
		return data, nil, nil
	}
	out, err := json.Marshal(value)
	if err != nil {
		return nil, nil, fmt.Errorf("schema: encoding arguments: %w", err)
	}
	return out, nil, nil
}

// Summary is the one-line message of a validation failure, in the
// original's format: `<first issue message>[ at <path joined by ".">][ (+N
// more)]`, or `Validation failed` when there is no issue.
func Summary(issues []Issue) string {
	if len(issues) == 0 {
		return "Validation failed"
	}
	var b strings.Builder
	b.WriteString(issues[0].Message)
	if len(issues[0].Path) > 0 {
		b.WriteString(" at ")
		for i, seg := range issues[0].Path {
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, seg)
		}
	}
	if n := len(issues) - 1; n > 0 {
		fmt.Fprintf(&b, " (+%d more)", n)
	}
	return b.String()
}

// jsonValue returns x when it is already a decoded JSON value, or x encoded
// to JSON and decoded back.
func jsonValue(x any) (any, error) {
	if isJSON(x) {
		return x, nil
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return sv.UnmarshalJSON(bytes.NewReader(b))
}

func isJSON(x any) bool {
	switch x := x.(type) {
	case nil, bool, string, float64, json.Number:
		return true
	case map[string]any:
		for _, e := range x {
			if !isJSON(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !isJSON(e) {
				return false
			}
		}
		return true
	}
	return false
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
	root   any
	issues []Issue
}

func (c *collector) add(loc []string, extra string, keyword, msg string) {
	p := c.path(loc)
	if extra != "" {
		p = append(p, extra)
	}
	c.issues = append(c.issues, Issue{Path: p, Message: msg, Keyword: keyword})
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
	switch len(left) {
	case 0:
		c.add(e.InstanceLocation, "", "type", typeMessage(want, got))
	case 1:
		c.collect(left[0])
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
