package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// applyDefaultTags sets the default of each top-level property whose struct
// field has a `default:"…"` tag, which jsonschema-go does not read. The tag
// holds the default as JSON (`default:"true"`, `default:"10"`,
// `default:"[\"a\"]"`); for a string field, text that is not a JSON string is
// taken as the string itself (`default:"asc"`). The default must decode into
// the field's type.
func applyDefaultTags(s *jsonschema.Schema, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for _, f := range jsonFields(t) {
		tag, ok := f.Tag.Lookup("default")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		prop := s.Properties[name]
		if prop == nil {
			continue
		}
		raw := json.RawMessage(tag)
		if !json.Valid(raw) && f.Type.Kind() == reflect.String {
			raw, _ = json.Marshal(tag)
		}
		if err := json.Unmarshal(raw, reflect.New(f.Type).Interface()); err != nil {
			return fmt.Errorf("field %v.%s: default %q does not decode into %v: %v", t, f.Name, tag, f.Type, err)
		}
		prop.Default = raw
	}
	return nil
}
