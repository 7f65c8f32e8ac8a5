package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// applyTags reads the struct tags jsonschema-go does not, on every property
// of s, the schema inferred from t, at any depth: the fields of t, of the
// structs it holds, and of the elements of its slices, arrays and maps
// (through $ref for recursive types):
//
//   - `default:"…"` sets the property's default. The tag holds the default
//     as JSON (`default:"true"`, `default:"10"`, `default:"[\"a\"]"`); for a
//     string field, text that is not a JSON string is taken as the string
//     itself (`default:"asc"`). The default must decode into the field's
//     type.
//   - `enum:"a,b,c"` limits a string field, or the elements of a []string
//     field, to the listed values (comma-separated; a value cannot hold a
//     comma).
//   - `enumTitles:"First,Second,Third"` gives each enum value a display
//     title, one per value: the field's schema becomes oneOf (a string) or
//     items.anyOf (a []string) of {"const": value, "title": title}, the
//     titled enums of MCP elicitation (SEP-1330).
//   - `enumNames:"First,Second,Third"` gives the titles in the older
//     enumNames form, for clients that predate titled enums.
//   - one tag per validation keyword, named as the keyword (see
//     [keywordTags]): `minLength:"1"`, `pattern:"^[a-z]+$"`,
//     `format:"email"`, `minimum:"0"`, `maxItems:"10"`, … A keyword goes on
//     the field's own schema when it applies to the field's type; a string
//     or number keyword on a slice or map field goes on its elements (on a
//     []string, minLength bounds each string and minItems the list).
//
// A tag that does not parse, or fits neither the field's type nor its
// elements', is an error naming the type, the field and the tag.
func applyTags(s *jsonschema.Schema, t reflect.Type) error {
	a := &tagger{root: s, seen: map[*jsonschema.Schema]bool{}}
	return a.walk(s, t)
}

// tagger applies the tags of one inferred schema.
type tagger struct {
	root *jsonschema.Schema
	seen map[*jsonschema.Schema]bool // schemas already walked (shared $defs)
}

// resolve returns the schema s stands for: the definition a $ref names
// (the document is inferred: its refs are "#/$defs/<name>"), the non-null
// branch of the anyOf [null, $ref] of a pointer to a recursive type, or s.
func (a *tagger) resolve(s *jsonschema.Schema) *jsonschema.Schema {
	for range 4 {
		switch {
		case s == nil:
			return nil
		case s.Ref != "":
			name, ok := strings.CutPrefix(s.Ref, "#/$defs/")
			d := a.root.Defs[name]
			if !ok || d == nil {
				return s
			}
			s = d
		case len(s.AnyOf) == 2 && s.AnyOf[0].Type == "null" && s.Type == "" && len(s.Types) == 0:
			s = s.AnyOf[1]
		default:
			return s
		}
	}
	return s
}

// walk applies the tags of the fields of t, and of the types t holds, to
// s, the schema inferred from t.
func (a *tagger) walk(s *jsonschema.Schema, t reflect.Type) error {
	s = a.resolve(s)
	if s == nil || a.seen[s] {
		return nil
	}
	a.seen[s] = true
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, ok := encodedTypes()[t]; ok {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return a.walk(s.Items, t.Elem())
	case reflect.Map:
		if s.AdditionalProperties != nil && !isFalse(s.AdditionalProperties) {
			return a.walk(s.AdditionalProperties, t.Elem())
		}
		return nil
	case reflect.Struct:
	default:
		return nil
	}
	if u, _ := unionOf(t); u != nil && len(s.OneOf) == len(u.variants) {
		for i, v := range u.variants {
			if err := a.walk(s.OneOf[i], v.typ); err != nil {
				return err
			}
		}
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
		if err := applyFieldTags(a, prop, f); err != nil {
			return fmt.Errorf("field %v.%s: %w", t, f.Name, err)
		}
		if err := a.walk(prop, f.Type); err != nil {
			return err
		}
	}
	return nil
}

// applyFieldTags applies the tags of field f to prop, its schema.
func applyFieldTags(a *tagger, prop *jsonschema.Schema, f reflect.StructField) error {
	if tag, ok := f.Tag.Lookup("default"); ok {
		raw := json.RawMessage(tag)
		if !json.Valid(raw) && f.Type.Kind() == reflect.String {
			raw, _ = json.Marshal(tag)
		}
		if err := json.Unmarshal(raw, reflect.New(f.Type).Interface()); err != nil {
			return fmt.Errorf("default %q does not decode into %v: %v", tag, f.Type, err)
		}
		prop.Default = raw
	}
	if err := applyEnum(prop, f); err != nil {
		return err
	}
	return applyKeywords(a, prop, f)
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
	multi, err := enumKind(f.Type)
	if err != nil {
		return err
	}
	values, err := enumValues(tag)
	if err != nil {
		return err
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
		return applyEnumTitles(target, values, titles, multi)
	case hasNames:
		if err := applyEnumNames(target, values, names, multi); err != nil {
			return err
		}
	}
	target.Enum = make([]any, len(values))
	for i, v := range values {
		target.Enum[i] = v
	}
	return nil
}

// enumKind reports whether t, the type of a field with an enum tag, is
// []string (a multi-select) rather than string, or why it is neither.
func enumKind(t reflect.Type) (multi bool, err error) {
	multi = t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String
	if t.Kind() != reflect.String && !multi {
		// A pointer's null would be outside the enum: use omitempty.
		return false, fmt.Errorf("an enum tag needs a string or []string field, not %v", t)
	}
	return multi, nil
}

// enumValues splits the enum tag into its values, each listed once.
func enumValues(tag string) ([]string, error) {
	values, err := enumList("enum", tag, -1)
	if err != nil {
		return nil, err
	}
	if len(values) != len(slices.Compact(slices.Sorted(slices.Values(values)))) {
		return nil, fmt.Errorf("enum %q lists a value twice", tag)
	}
	return values, nil
}

// enumList splits list, the comma-separated value of the tag what, into
// count entries (any number when count is negative), none of them empty.
func enumList(what, list string, count int) ([]string, error) {
	parts := strings.Split(list, ",")
	if count >= 0 && len(parts) != count {
		return nil, fmt.Errorf("%s has %d entries for %d enum values", what, len(parts), count)
	}
	if slices.Contains(parts, "") {
		return nil, fmt.Errorf("%s %q has an empty entry", what, list)
	}
	return parts, nil
}

// applyEnumTitles applies the enumTitles tag, titles, to target, the
// schema of a string or, when multi is set, of the items of a []string:
// each of values becomes an alternative, a const with its title.
func applyEnumTitles(target *jsonschema.Schema, values []string, titles string, multi bool) error {
	ts, err := enumList("enumTitles", titles, len(values))
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
}

// applyEnumNames applies the enumNames tag, names, to target, the schema
// of a string (not of a []string's items, when multi is set), beside its
// enum of values.
func applyEnumNames(target *jsonschema.Schema, values []string, names string, multi bool) error {
	if multi {
		return errors.New("enumNames applies to a string field; use enumTitles for a []string")
	}
	ns, err := enumList("enumNames", names, len(values))
	if err != nil {
		return err
	}
	if target.Extra == nil {
		target.Extra = map[string]any{}
	}
	target.Extra["enumNames"] = ns
	return nil
}
