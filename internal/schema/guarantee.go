package schema

import (
	"encoding"
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// OutputGuaranteed reports whether every value of t, encoded by
// encoding/json, is valid against s, its schema inferred by [Output], so
// that validating a handler's output would spend work on a verdict known in
// advance. It holds when s constrains nothing but the types, properties and
// nullability that inference derives from t itself, and t has no type that
// encodes itself (a json.Marshaler or encoding.TextMarshaler, whose JSON
// may be anything). A schema or type it does not recognise is not
// guaranteed: the output is then validated as before.
func OutputGuaranteed(t reflect.Type, s *jsonschema.Schema) bool {
	return !constrains(s) && plainType(t, map[reflect.Type]bool{})
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshal   = reflect.TypeFor[encoding.TextMarshaler]()
)

// plainType reports whether encoding/json encodes every value of t from its
// structure alone.
func plainType(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	if t == reflect.TypeFor[json.Number]() {
		return false // a string type that encodes as a number
	}
	for _, tt := range []reflect.Type{t, reflect.PointerTo(t)} {
		if tt.Implements(jsonMarshaler) || tt.Implements(textMarshal) {
			return false
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return plainType(t.Elem(), seen)
	case reflect.Map:
		// A key that marshals itself becomes a property name: any string.
		return plainType(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				if !plainType(f.Type, seen) {
					return false
				}
			}
		}
		return true
	case reflect.Bool, reflect.String, reflect.Interface,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		// An interface's schema accepts anything; a float's NaN fails
		// encoding before validation would see it.
		return true
	}
	return false
}

// constrains reports whether s, at any depth, uses a keyword that a value
// of the right types and shape may still fail.
func constrains(s *jsonschema.Schema) bool {
	found := false
	walkSchemas(s, func(n *jsonschema.Schema) {
		if constrainsValue(n) || constrainsNumber(n) || constrainsString(n) ||
			constrainsArray(n) || constrainsObject(n) || constrainsInPlace(n) {
			found = true
		}
	})
	return found
}

// constrainsValue reports whether n uses enum or const.
func constrainsValue(n *jsonschema.Schema) bool {
	return n.Enum != nil || n.Const != nil
}

// constrainsNumber reports whether n uses a keyword for numbers.
func constrainsNumber(n *jsonschema.Schema) bool {
	return n.Minimum != nil || n.Maximum != nil || n.ExclusiveMinimum != nil || n.ExclusiveMaximum != nil ||
		n.MultipleOf != nil
}

// constrainsString reports whether n uses a keyword for strings.
func constrainsString(n *jsonschema.Schema) bool {
	return n.Pattern != "" || n.Format != "" || n.MinLength != nil || n.MaxLength != nil
}

// constrainsArray reports whether n uses a keyword for arrays other than
// items and prefixItems, which inference derives from the type.
func constrainsArray(n *jsonschema.Schema) bool {
	return n.MinItems != nil || n.MaxItems != nil || n.UniqueItems || n.Contains != nil
}

// constrainsObject reports whether n uses a keyword for objects other
// than properties, required and additionalProperties, which inference
// derives from the type.
func constrainsObject(n *jsonschema.Schema) bool {
	return n.MinProperties != nil || n.MaxProperties != nil || n.DependentRequired != nil ||
		n.DependentSchemas != nil || n.PropertyNames != nil || n.PatternProperties != nil
}

// constrainsInPlace reports whether n applies a subschema to the value
// itself in a way other than inference's nullable anyOf. The schema false,
// which inference writes as additionalProperties of a struct, is no such
// keyword: encoding/json never adds a property to a struct.
func constrainsInPlace(n *jsonschema.Schema) bool {
	return n.If != nil || (n.Not != nil && !isFalse(n)) || n.OneOf != nil || n.AllOf != nil
}
