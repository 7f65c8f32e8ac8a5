package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
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
	}
	return nil
}
