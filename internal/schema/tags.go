package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// applyTags reads the struct tags jsonschema-go does not, on each top-level
// property of t:
//
//   - `default:"…"` sets the property's default. The tag holds the default
//     as JSON (`default:"true"`, `default:"10"`, `default:"[\"a\"]"`); for a
//     string field, text that is not a JSON string is taken as the string
//     itself (`default:"asc"`). The default must decode into the field's
//     type.
//   - `pattern:"…"` constrains a string field to a regular expression
//     (RE2 syntax, unanchored as JSON Schema's pattern is: write ^…$ to
//     match the whole value). It is how a URI-template variable or a prompt
//     argument is kept to a safe alphabet.
//   - `enum:"a,b,c"` limits a string field, or the elements of a []string
//     field, to the listed values (comma-separated; a value cannot hold a
//     comma).
//   - `enumTitles:"First,Second,Third"` gives each enum value a display
//     title, one per value: the field's schema becomes oneOf (a string) or
//     items.anyOf (a []string) of {"const": value, "title": title}, the
//     titled enums of MCP elicitation (SEP-1330).
//   - `enumNames:"First,Second,Third"` gives the titles in the older
//     enumNames form, for clients that predate titled enums.
func applyTags(s *jsonschema.Schema, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for _, f := range jsonFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		prop := s.Properties[name]
		if prop == nil {
			continue
		}
		if tag, ok := f.Tag.Lookup("default"); ok {
			raw := json.RawMessage(tag)
			if !json.Valid(raw) && f.Type.Kind() == reflect.String {
				raw, _ = json.Marshal(tag)
			}
			if err := json.Unmarshal(raw, reflect.New(f.Type).Interface()); err != nil {
				return fmt.Errorf("field %v.%s: default %q does not decode into %v: %v", t, f.Name, tag, f.Type, err)
			}
			prop.Default = raw
		}
		if tag, ok := f.Tag.Lookup("pattern"); ok {
			if ft := f.Type; ft.Kind() != reflect.String && !(ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.String) {
				return fmt.Errorf("field %v.%s: a pattern tag needs a string field, not %v", t, f.Name, f.Type)
			}
			if _, err := regexp.Compile(tag); err != nil {
				return fmt.Errorf("field %v.%s: pattern %q: %v", t, f.Name, tag, err)
			}
			prop.Pattern = tag
		}
		if err := applyEnum(prop, f); err != nil {
			return fmt.Errorf("field %v.%s: %w", t, f.Name, err)
		}
	}
	return nil
}

// applyEnum applies the enum, enumTitles and enumNames tags of f to prop.
func applyEnum(prop *jsonschema.Schema, f reflect.StructField) error {
	tag, ok := f.Tag.Lookup("enum")
	titles, hasTitles := f.Tag.Lookup("enumTitles")
	names, hasNames := f.Tag.Lookup("enumNames")
	if !ok {
		if hasTitles || hasNames {
			return errors.New("enumTitles and enumNames need an enum tag")
		}
		return nil
	}
	ft := f.Type
	multi := ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.String
	if ft.Kind() != reflect.String && !multi {
		// A pointer's null would be outside the enum: use omitempty.
		return fmt.Errorf("an enum tag needs a string or []string field, not %v", f.Type)
	}
	split := func(what, list string) ([]string, error) {
		parts := strings.Split(list, ",")
		if slices.Contains(parts, "") {
			return nil, fmt.Errorf("%s %q has an empty entry", what, list)
		}
		return parts, nil
	}
	values, err := split("enum", tag)
	if err != nil {
		return err
	}
	if len(values) != len(slices.Compact(slices.Sorted(slices.Values(values)))) {
		return fmt.Errorf("enum %q lists a value twice", tag)
	}
	split = func(what, list string) ([]string, error) {
		parts := strings.Split(list, ",")
		if len(parts) != len(values) {
			return nil, fmt.Errorf("%s has %d entries for %d enum values", what, len(parts), len(values))
		}
		if slices.Contains(parts, "") {
			return nil, fmt.Errorf("%s %q has an empty entry", what, list)
		}
		return parts, nil
	}
	target := prop
	if multi {
		if prop.Items == nil {
			prop.Items = &jsonschema.Schema{Type: "string"}
		}
		target = prop.Items
	}
	switch {
	case hasTitles && hasNames:
		return errors.New("give enumTitles or enumNames, not both")
	case hasTitles:
		ts, err := split("enumTitles", titles)
		if err != nil {
			return err
		}
		opts := make([]*jsonschema.Schema, len(values))
		for i, v := range values {
			opts[i] = &jsonschema.Schema{Const: jsonschema.Ptr[any](v), Title: ts[i]}
		}
		if multi {
			// MCP's titled multi-select: items are the anyOf alone.
			target.Type = ""
			target.AnyOf = opts
		} else {
			target.OneOf = opts
		}
		return nil
	case hasNames:
		if multi {
			return errors.New("enumNames applies to a string field; use enumTitles for a []string")
		}
		ns, err := split("enumNames", names)
		if err != nil {
			return err
		}
		if target.Extra == nil {
			target.Extra = map[string]any{}
		}
		target.Extra["enumNames"] = ns
	}
	target.Enum = make([]any, len(values))
	for i, v := range values {
		target.Enum[i] = v
	}
	return nil
}
