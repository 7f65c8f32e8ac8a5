package schema

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFill is the compilation of one schema's keywords into its node, a
// keyword family per method. A family returns the errors of its own
// keywords at once. A subschema's error, or a count's, is kept in err,
// where it stops the compilation of later subschemas and waits for the
// other families: fill returns it when none of them failed, so that a
// family reads as a list of assignments.
type schemaFill struct {
	c    *compiler
	n    *compiled
	s    *jsonschema.Schema
	info *schemaInfo
	err  error
}

// fill compiles the keywords of s into n.
func (c *compiler) fill(n *compiled, s *jsonschema.Schema, info *schemaInfo) error {
	f := &schemaFill{c: c, n: n, s: s, info: info}
	// $ref first: in drafts before 2019-09 it hides its siblings.
	if err := f.ref(); err != nil {
		return err
	}
	if n.legacyRef {
		return f.err
	}
	// In this order: a subschema's compilation may record why the
	// validator is unbounded, and the first reason is the one said.
	for _, family := range []func() error{
		f.dynamicRef, f.types, f.values, f.numbers, f.strings, f.messages,
		f.arrays, f.properties, f.patternProperties, f.objects, f.dependencies,
		f.applicators, f.defaultValue,
	} {
		if err := family(); err != nil {
			return err
		}
	}
	f.unorderedLoops()
	n.applies = n.hasApplicators()
	n.byKeys = n.dependentRequired != nil || n.propertyNames != nil || n.dependentSchemas != nil
	return f.err
}

// bad is an error of the schema being compiled.
func (f *schemaFill) bad(format string, args ...any) error {
	return &compileError{f.info.loc, fmt.Sprintf(format, args...)}
}

// sub compiles the subschema x (nil for none, or after an error).
func (f *schemaFill) sub(x *jsonschema.Schema) *compiled {
	if x == nil || f.err != nil {
		return nil
	}
	var n *compiled
	n, f.err = f.c.node(x)
	return n
}

// subs compiles a list of subschemas.
func (f *schemaFill) subs(l []*jsonschema.Schema) []*compiled {
	var out []*compiled
	for _, x := range l {
		out = append(out, f.sub(x))
	}
	return out
}

// count reads a non-negative count keyword, -1 when absent.
func (f *schemaFill) count(kw string, p *int) int {
	if p == nil {
		return -1
	}
	if *p < 0 && f.err == nil {
		f.err = f.bad("%s must be a non-negative integer, not %d", kw, *p)
	}
	return *p
}

func (f *schemaFill) ref() error {
	if f.s.Ref == "" {
		return nil
	}
	target, err := f.c.resolve(f.s.Ref, f.info)
	if err != nil {
		return err
	}
	f.n.ref = f.sub(target)
	f.n.legacyRef = f.c.legacy
	return nil
}

// dynamicRef resolves as $ref does, unless its fragment names a
// $dynamicAnchor that its target has: then the walk looks the name up in
// the dynamic scope (see dynamic.go).
func (f *schemaFill) dynamicRef() error {
	if f.s.DynamicRef == "" {
		return nil
	}
	target, err := f.c.resolve(f.s.DynamicRef, f.info)
	if err != nil {
		return err
	}
	f.n.dynamicRef = f.sub(target)
	if u, _ := url.Parse(f.s.DynamicRef); u != nil && isAnchorName(u.Fragment) && target.DynamicAnchor == u.Fragment {
		f.n.dynamicName = u.Fragment
	}
	return nil
}

// isAnchorName reports whether a URI fragment names an anchor, not a JSON
// pointer.
func isAnchorName(fragment string) bool {
	return fragment != "" && !strings.HasPrefix(fragment, "/")
}

func (f *schemaFill) types() error {
	names := f.s.Types
	if f.s.Type != "" {
		names = []string{f.s.Type}
	}
	for _, t := range names {
		bit, ok := typeNames[t]
		if !ok {
			return f.bad("type %q is not a JSON Schema type", t)
		}
		f.n.types |= bit
	}
	f.n.typeNames = names
	return nil
}

// values compiles const and enum.
func (f *schemaFill) values() error {
	if f.s.Const != nil {
		v, err := normalize(*f.s.Const)
		if err != nil {
			return f.bad("const: %v", err)
		}
		f.n.hasConst, f.n.constVal = true, v
	}
	if f.s.Enum != nil {
		f.n.enum = make([]any, len(f.s.Enum))
		for i, e := range f.s.Enum {
			v, err := normalize(e)
			if err != nil {
				return f.bad("enum: %v", err)
			}
			f.n.enum[i] = v
		}
	}
	return nil
}

func (f *schemaFill) numbers() error {
	s, n := f.s, f.n
	n.minimum, n.maximum = newBound(s.Minimum), newBound(s.Maximum)
	n.exclusiveMinimum, n.exclusiveMaximum = newBound(s.ExclusiveMinimum), newBound(s.ExclusiveMaximum)
	if n.multipleOf = newBound(s.MultipleOf); n.multipleOf != nil && !(n.multipleOf.f > 0) {
		return f.bad("multipleOf must be greater than 0")
	}
	return nil
}

// strings compiles minLength, maxLength, pattern and format.
func (f *schemaFill) strings() error {
	s, n := f.s, f.n
	n.minLength, n.maxLength = f.count("minLength", s.MinLength), f.count("maxLength", s.MaxLength)
	if s.Pattern != "" {
		re, err := compilePattern(s.Pattern)
		if err != nil {
			return f.bad("pattern %q: %v", s.Pattern, err)
		}
		n.pattern = re
		if why := re.costly(); why != "" {
			f.c.unboundedBy(f.info.loc, why)
		}
	}
	if check, ok := formats[s.Format]; ok {
		n.format, n.formatName = check, s.Format
	}
	return nil
}

// messages compiles errorMessage.
func (f *schemaFill) messages() error {
	m, ok := f.s.Extra["errorMessage"]
	if !ok {
		return nil
	}
	ms, err := errorMessages(m)
	if err != nil {
		return f.bad("errorMessage: %v", err)
	}
	f.n.messages = ms
	return nil
}

func (f *schemaFill) arrays() error {
	s, n := f.s, f.n
	n.minItems, n.maxItems = f.count("minItems", s.MinItems), f.count("maxItems", s.MaxItems)
	n.uniqueItems = s.UniqueItems
	switch {
	case s.ItemsArray != nil && !f.c.legacyArrays:
		return f.bad("items must be a schema in draft 2020-12 (prefixItems lists the first items' schemas)")
	case s.ItemsArray != nil:
		n.prefixItems = f.subs(s.ItemsArray)
		n.items = f.sub(s.AdditionalItems)
		n.legacyItems = true
	case f.c.legacyArrays:
		n.items = f.sub(s.Items) // additionalItems applies only after an items array
	default:
		n.prefixItems = f.subs(s.PrefixItems)
		n.items = f.sub(s.Items)
	}
	n.contains = f.sub(s.Contains)
	n.minContains, n.maxContains = f.count("minContains", s.MinContains), f.count("maxContains", s.MaxContains)
	n.unevaluatedItems = f.sub(s.UnevaluatedItems)
	return nil
}

// properties compiles minProperties, maxProperties, required and
// properties.
func (f *schemaFill) properties() error {
	s, n := f.s, f.n
	n.minProperties, n.maxProperties = f.count("minProperties", s.MinProperties), f.count("maxProperties", s.MaxProperties)
	n.required = s.Required
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		n.props = append(n.props, prop{name: name, node: f.sub(s.Properties[name]), required: slices.Contains(s.Required, name)})
	}
	n.orderByDiscriminators()
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; !ok && !slices.Contains(n.reqOnly, r) {
			n.reqOnly = append(n.reqOnly, r)
		}
	}
	return nil
}

func (f *schemaFill) patternProperties() error {
	for _, p := range slices.Sorted(maps.Keys(f.s.PatternProperties)) {
		re, err := compilePattern(p)
		if err != nil {
			return f.bad("patternProperties %q: %v", p, err)
		}
		if why := re.costly(); why != "" {
			f.c.unboundedBy(f.info.loc+"/patternProperties", why)
		}
		f.n.patternProps = append(f.n.patternProps, patternProp{re, f.sub(f.s.PatternProperties[p])})
	}
	return nil
}

// objects compiles the keywords that apply a schema to the other keys of
// an object, or to its key names.
func (f *schemaFill) objects() error {
	f.n.additional = f.sub(f.s.AdditionalProperties)
	f.n.propertyNames = f.sub(f.s.PropertyNames)
	return nil
}

// dependencies compiles dependentRequired, dependentSchemas, draft 7's
// dependencies, and unevaluatedProperties, which comes after them all.
func (f *schemaFill) dependencies() error {
	s, n := f.s, f.n
	for _, name := range slices.Sorted(maps.Keys(s.DependentRequired)) {
		n.dependentRequired = append(n.dependentRequired, dependency{name, s.DependentRequired[name], "dependentRequired"})
	}
	for _, name := range slices.Sorted(maps.Keys(s.DependencyStrings)) {
		n.dependentRequired = append(n.dependentRequired, dependency{name, s.DependencyStrings[name], "dependencies"})
	}
	for _, m := range []map[string]*jsonschema.Schema{s.DependentSchemas, s.DependencySchemas} {
		for _, name := range slices.Sorted(maps.Keys(m)) {
			n.dependentSchemas = append(n.dependentSchemas, namedNode{name, f.sub(m[name])})
		}
	}
	n.unevaluatedProperties = f.sub(s.UnevaluatedProperties)
	return nil
}

// applicators compiles the keywords that apply subschemas to the value
// itself.
func (f *schemaFill) applicators() error {
	s, n := f.s, f.n
	n.allOf, n.anyOf, n.oneOf = f.subs(s.AllOf), f.subs(s.AnyOf), f.subs(s.OneOf)
	n.not = f.sub(s.Not)
	n.ifN, n.then, n.elseN = f.sub(s.If), f.sub(s.Then), f.sub(s.Else)
	return nil
}

func (f *schemaFill) defaultValue() error {
	if f.s.Default == nil {
		return nil
	}
	f.n.hasDefault = true
	f.c.defaults = true
	v, err := decodeJSON(f.s.Default)
	if err != nil {
		return f.bad("default: %v", err)
	}
	f.n.defaultVal = v
	return nil
}

// unorderedLoops records the keywords of the schema whose loops the walk
// does not stop early (see Bounded).
func (f *schemaFill) unorderedLoops() {
	s, n := f.s, f.n
	for _, k := range []struct {
		uses bool
		what string
	}{
		{len(s.PatternProperties) > 0, "patternProperties"},
		{s.PropertyNames != nil, "propertyNames"},
		{s.Contains != nil, "contains"},
		{len(s.DependentSchemas) > 0, "dependentSchemas"},
		{len(s.DependencySchemas) > 0 || len(s.DependencyStrings) > 0, "dependencies"},
		{assertsSchema(n.unevaluatedProperties, s.UnevaluatedProperties), "a schema-valued unevaluatedProperties"},
		{assertsSchema(n.unevaluatedItems, s.UnevaluatedItems), "a schema-valued unevaluatedItems"},
	} {
		if k.uses {
			f.c.unorderedBy(f.info.loc, k.what)
		}
	}
}

// assertsSchema reports whether the subschema s, compiled to n, is neither
// absent nor the schema true or false.
func assertsSchema(n *compiled, s *jsonschema.Schema) bool {
	return n != nil && !isTrueSchema(s) && !n.never
}

// orderByDiscriminators records the declared properties whose schema has a
// const or an enum, and, when there are others too, the order of the
// validity walk that tries them first.
func (n *compiled) orderByDiscriminators() {
	for i, p := range n.props {
		if p.node != nil && (p.node.hasConst || p.node.enum != nil) {
			n.discriminators = append(n.discriminators, i)
		}
	}
	if len(n.discriminators) == 0 || len(n.discriminators) == len(n.props) {
		return
	}
	n.propOrder = append([]int(nil), n.discriminators...)
	for i := range n.props {
		if !slices.Contains(n.discriminators, i) {
			n.propOrder = append(n.propOrder, i)
		}
	}
}
