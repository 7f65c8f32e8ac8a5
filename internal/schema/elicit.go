package schema

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// Elicitation infers the requested schema of an elicitation (a question put
// to the user through the client) whose answer decodes into t, a struct.
//
// MCP keeps these forms flat, so that any client can draw them: every
// property is a string, a number, an integer or a boolean (each with its
// default, from the `default` tag), a string with a closed set of values
// (the `enum` tags), or a []string of such values (a multi-select). Anything
// else (a nested struct, a map, a list of numbers) is refused here, when the
// server starts, rather than by the client on every call.
func Elicitation(t reflect.Type) (*jsonschema.Schema, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("schema: elicitation type %v must be a struct: a form's answer is an object of named fields", t)
	}
	s, err := input(t) // nullable as inferred: a pointer field is refused below
	if err != nil {
		return nil, err
	}
	form := &jsonschema.Schema{Type: "object", Properties: s.Properties, PropertyOrder: s.PropertyOrder, Required: s.Required}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		if slices.Equal(p.Types, []string{"null", "array"}) {
			// A multi-select is a list; a nil slice is left out, not null.
			p.Type, p.Types = "array", nil
		}
		if p.Pattern != "" {
			return nil, fmt.Errorf("schema: elicitation type %v: property %q has a pattern, which MCP's elicitation forms do not carry: the client could not enforce it; check the answer in the handler", t, name)
		}
		if kw := formless(p); kw != "" {
			return nil, fmt.Errorf("schema: elicitation type %v: property %q has %s, which MCP's elicitation forms do not carry: the client could not enforce it; check the answer in the handler", t, name, kw)
		}
		if !primitive(p) {
			return nil, fmt.Errorf("schema: elicitation type %v: property %q is %s; an elicitation form holds only strings, numbers, integers, booleans and lists of enum strings",
				t, name, marshalOr(p))
		}
	}
	return form, nil
}

// primitive reports whether p is one of the property schemas an elicitation
// form may hold.
func primitive(p *jsonschema.Schema) bool {
	if p == nil || len(p.Types) > 0 {
		return false // a pointer field (nullable) is not a form field
	}
	switch p.Type {
	case "string", "number", "integer", "boolean":
		return true
	case "array":
		it := p.Items
		return it != nil && ((it.Type == "string" && len(it.Enum) > 0) || (it.Type == "" && len(it.AnyOf) > 0))
	}
	return false
}

// formless names the keyword of p, a form field, that MCP's elicitation
// schemas have no place for ("" when none): a string takes minLength,
// maxLength and four formats, a number minimum and maximum, a
// multi-select minItems and maxItems.
func formless(p *jsonschema.Schema) string {
	switch {
	case p.Format != "" && !slices.Contains([]string{"email", "uri", "date", "date-time"}, p.Format):
		return fmt.Sprintf("format %q", p.Format)
	case p.ExclusiveMinimum != nil:
		return "exclusiveMinimum"
	case p.ExclusiveMaximum != nil:
		return "exclusiveMaximum"
	case p.MultipleOf != nil:
		return "multipleOf"
	case p.UniqueItems:
		return "uniqueItems"
	}
	return ""
}
