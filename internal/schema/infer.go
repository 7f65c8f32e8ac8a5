package schema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ErrorProperty is the top-level key of structuredContent that holds a
// failure; a success output schema may not use it.
const ErrorProperty = "error"

// Input infers the input schema of a tool whose arguments decode into t, a
// struct or a map with string keys (or a pointer to one): tool arguments are
// always a JSON object, and the SDK refuses any other input schema.
//
// The root rejects unknown keys, so a misspelt argument is reported rather
// than silently dropped; a map type stays open. Nested objects accept unknown
// keys, as encoding/json does when it decodes them (jsonschema-go closes
// every struct; Input reopens all but the root).
//
// The schema is portable: every property has one type, and optionality is
// said by required alone. A slice, map or pointer field is "array",
// "object" or its element's type, not jsonschema-go's ["null", …], which
// clients that map tool schemas onto a single-type dialect (as some model
// providers do) reject. For the handler nothing is lost: encoding/json
// decodes an absent key and a null one alike, to the zero value. A client
// that omits an optional property gets the zero value; one that sends null
// for it gets the same, because [Validator.CheckJSON] treats null as absent
// for an optional property whose schema refuses null. A null for a required
// property, or an array element, is refused with an issue such as
// `expected array, received null`.
func Input(t reflect.Type) (*jsonschema.Schema, error) {
	s, err := input(t)
	if err != nil {
		return nil, err
	}
	walkSchemas(s, singleType)
	return s, nil
}

// input is the input schema of [Input] as jsonschema-go infers it, with
// slices, maps and pointers nullable.
func input(t reflect.Type) (*jsonschema.Schema, error) {
	s, err := inferObject(t, "input")
	if err != nil {
		return nil, err
	}
	if err := applyTags(s, t); err != nil {
		return nil, fmt.Errorf("schema: input type %v: %w", t, err)
	}
	reopen := func(sub *jsonschema.Schema) {
		walkSchemas(sub, func(n *jsonschema.Schema) {
			if isFalse(n.AdditionalProperties) {
				n.AdditionalProperties = nil
			}
		})
	}
	if isRootUnion(t) {
		// Each variant is the root of what a client sends: each stays
		// closed, so that an unknown key is an issue of the variant
		// claimed (unevaluatedProperties at the root would see no
		// property of a variant that failed).
		for _, v := range s.OneOf {
			walkSubschemas(v, reopen)
		}
		return s, nil
	}
	walkSubschemas(s, reopen)
	return Strict(s), nil
}

// isRootUnion reports whether t, or what it points to, is a union type.
func isRootUnion(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	u, err := unionOf(t)
	return u != nil && err == nil
}

// Output infers the success output schema of a tool whose handler returns t,
// a struct or a map with string keys (or a pointer to one), because MCP's
// structuredContent is a JSON object. A top-level property named "error" is
// refused: that key carries the failure envelope, and a success field of the
// same name would make failures and successes indistinguishable. Nested
// objects stay closed as inferred: a result encoded from t has no other keys.
//
// A nil slice, map or pointer encodes as null, so such a field is
// nullable, written portably as {"anyOf": [{"type": "null"}, {"type": …}]}
// (one type per schema) rather than jsonschema-go's ["null", …]; a map,
// which jsonschema-go does not make nullable, is too, so that a result with
// a nil map validates.
func Output(t reflect.Type) (*jsonschema.Schema, error) {
	s, err := inferObject(t, "output")
	if err != nil {
		return nil, err
	}
	for _, top := range append([]*jsonschema.Schema{s}, s.OneOf...) {
		if _, ok := top.Properties[ErrorProperty]; ok {
			return nil, fmt.Errorf("schema: output type %v has a top-level property %q; it is reserved for the error envelope of a failed call, rename the field", t, ErrorProperty)
		}
	}
	nullableOutput(s)
	return s, nil
}

// singleType makes s, a schema of [Input], accept a single type: a type
// list that holds "null" loses it, and the anyOf [null, $ref] that infer
// writes for a pointer to a recursive type becomes the $ref.
func singleType(s *jsonschema.Schema) {
	if slices.Contains(s.Types, "null") {
		rest := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		s.Types = nil
		switch len(rest) {
		case 0:
			s.Type = "null"
		case 1:
			s.Type = rest[0]
		default:
			s.Types = rest
		}
	}
	if ref, ok := nullableRef(s); ok {
		s.AnyOf, s.Ref = nil, ref
	}
}

// nullableRef reports whether s is the anyOf [null, $ref] that infer writes
// for a pointer to a recursive type, and its $ref.
func nullableRef(s *jsonschema.Schema) (string, bool) {
	if len(s.AnyOf) != 2 || s.Ref != "" || s.Type != "" || len(s.Types) > 0 {
		return "", false
	}
	null, ref := s.AnyOf[0], s.AnyOf[1]
	if marshalOr(null) != `{"type":"null"}` || ref.Ref == "" || marshalOr(ref) != marshalOr(&jsonschema.Schema{Ref: ref.Ref}) {
		return "", false
	}
	return ref.Ref, true
}

// nullableOutput makes every schema below the root of s, an output schema,
// accept null where encoding/json can write it, in a portable form: a
// nullable ["null", T] (a slice or a pointer, as jsonschema-go infers them)
// and a map's object (which jsonschema-go does not make nullable, though a
// nil map encodes as null) become {"anyOf": [{"type": "null"}, {"type": T,
// …}]}, their description and title kept outside.
func nullableOutput(s *jsonschema.Schema) {
	branches := map[*jsonschema.Schema]bool{}
	walkSubschemas(s, func(sub *jsonschema.Schema) {
		walkSchemas(sub, func(n *jsonschema.Schema) {
			if branches[n] {
				return // the non-null branch of a schema made nullable here
			}
			typ := ""
			switch {
			case len(n.Types) == 2 && n.Types[0] == "null":
				typ = n.Types[1]
			case len(n.Types) == 2 && n.Types[1] == "null":
				typ = n.Types[0]
			case n.Type == "object" && len(n.Types) == 0 && len(n.Properties) == 0 &&
				n.AdditionalProperties != nil && !isFalse(n.AdditionalProperties):
				typ = "object" // a map: a struct's object is closed
			default:
				return
			}
			branch := *n
			branch.Type, branch.Types = typ, nil
			branch.Title, branch.Description = "", ""
			*n = jsonschema.Schema{
				Title:       n.Title,
				Description: n.Description,
				AnyOf:       []*jsonschema.Schema{{Type: "null"}, &branch},
			}
			branches[&branch] = true
		})
	})
}

// Params infers the schema of prompt arguments or URI-template variables
// decoded into t. They travel as strings (a prompt's arguments are a
// map[string]string, a URI's variables are text), so beyond the rules of
// [Input] every top-level property must be a string (or *string): a field
// of another type could never validate, and is refused here rather than on
// every call.
func Params(t reflect.Type) (*jsonschema.Schema, error) {
	s, err := Input(t)
	if err != nil {
		return nil, err
	}
	stringy := func(p *jsonschema.Schema) bool { return p != nil && p.Type == "string" }
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		if !stringy(s.Properties[name]) {
			return nil, fmt.Errorf("schema: params type %v: property %q is %s; prompt arguments and URI-template variables are strings, make it a string field",
				t, name, marshalOr(s.Properties[name]))
		}
	}
	if ap := s.AdditionalProperties; ap != nil && !isFalse(ap) && !stringy(ap) {
		return nil, fmt.Errorf("schema: params type %v: map values are %s; prompt arguments and URI-template variables are strings, use map[string]string",
			t, marshalOr(ap))
	}
	return s, nil
}

// marshalOr is the JSON of s, for error messages.
func marshalOr(s *jsonschema.Schema) string {
	b, err := json.Marshal(s)
	if err != nil {
		return "an unencodable schema"
	}
	return string(b)
}

// Strict returns a copy of s that rejects unknown top-level keys, unless s
// already says what happens to them (additionalProperties or
// unevaluatedProperties is set: the author opened or closed it). It is the
// rule [Input] applies, exposed for schemas written by hand. A root that
// composes subschemas (allOf, anyOf, oneOf, $ref, if) is closed with
// unevaluatedProperties, which sees the properties its subschemas declare,
// so each variant of a union stays usable.
func Strict(s *jsonschema.Schema) *jsonschema.Schema {
	c := s.CloneSchemas()
	if c.AdditionalProperties != nil || c.UnevaluatedProperties != nil {
		return c
	}
	if len(c.AllOf)+len(c.AnyOf)+len(c.OneOf) > 0 || c.Ref != "" || c.DynamicRef != "" || c.If != nil {
		c.UnevaluatedProperties = falseSchema()
	} else {
		c.AdditionalProperties = falseSchema()
	}
	return c
}

// inferObject infers the schema of t, which must encode as a JSON object.
func inferObject(t reflect.Type, what string) (*jsonschema.Schema, error) {
	if t == nil {
		return nil, fmt.Errorf("schema: %s type is nil", what)
	}
	root := t
	for root.Kind() == reflect.Pointer {
		root = root.Elem()
	}
	switch {
	case root.Kind() == reflect.Struct:
	case root.Kind() == reflect.Map && (root.Key().Kind() == reflect.String || root.Key().Implements(textMarshaler)):
	default:
		return nil, fmt.Errorf("schema: %s type %v must be a struct or a map with string keys: a tool's %s is a JSON object", what, t, what)
	}
	if err := checkTags(root); err != nil {
		return nil, fmt.Errorf("schema: %s type %v: %w", what, t, err)
	}
	s, err := infer(root)
	if err != nil {
		return nil, fmt.Errorf("schema: inferring the %s schema of %v: %w", what, t, err)
	}
	return s, nil
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// encodedTypes are the types whose JSON is not what their Go shape says:
// encoding/json writes a []byte as a base64 string, where jsonschema-go
// would infer an array of integers (and output validation would refuse
// every result that holds one).
func encodedTypes() map[reflect.Type]*jsonschema.Schema {
	return map[reflect.Type]*jsonschema.Schema{
		// A nil []byte is written null, as a nil slice is.
		reflect.TypeFor[[]byte](): {Types: []string{"null", "string"}, ContentEncoding: "base64"},
	}
}

// infer is jsonschema.ForType (t is not a pointer), extended to recursive
// types. jsonschema-go refuses a type that contains itself; here every named
// struct type on a cycle gets a definition in $defs, and its uses become
// {"$ref": "#/$defs/<name>"}. The root is always expanded in place (even when
// it is recursive), so that rules for the root alone, such as [Strict], do not
// leak into the nested occurrences.
func infer(t reflect.Type) (*jsonschema.Schema, error) {
	rec := recursiveTypes(t)
	names := defNames(rec)
	refs := encodedTypes()
	for _, r := range rec {
		refs[r] = &jsonschema.Schema{Ref: "#/$defs/" + names[r]}
	}
	opts := &jsonschema.ForOptions{TypeSchemas: refs}
	if err := addUnions(t, rec, opts); err != nil {
		return nil, err
	}
	if len(rec) == 0 {
		return jsonschema.ForType(t, opts)
	}
	defs := make(map[string]*jsonschema.Schema, len(rec))
	for _, r := range rec {
		d, err := jsonschema.ForType(flatten(r), opts)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", r, err)
		}
		defs[names[r]] = d
	}
	var root *jsonschema.Schema
	var err error
	if _, ok := refs[t]; ok {
		root, err = jsonschema.ForType(flatten(t), opts)
	} else {
		root, err = jsonschema.ForType(t, opts)
	}
	if err != nil {
		return nil, err
	}
	root.Defs = defs
	// jsonschema-go makes a pointer nullable by adding "null" to the type of
	// the schema it substitutes; next to a $ref that asks for null AND the
	// referenced object. Rewrite those as anyOf.
	walkSchemas(root, func(s *jsonschema.Schema) {
		if s.Ref != "" && len(s.Types) == 1 && s.Types[0] == "null" {
			*s = jsonschema.Schema{
				Description: s.Description,
				AnyOf:       []*jsonschema.Schema{{Type: "null"}, {Ref: s.Ref}},
			}
		}
	})
	return root, nil
}

// recursiveTypes returns the named struct types reachable from t that
// contain themselves, in a deterministic order.
func recursiveTypes(t reflect.Type) []reflect.Type {
	// Graph of named struct types: an edge from S to every named struct type
	// one of S's JSON fields holds, directly or through pointers, slices,
	// arrays, maps and unnamed structs.
	edges := map[reflect.Type][]reflect.Type{}
	var add func(reflect.Type)
	add = func(s reflect.Type) {
		if _, ok := edges[s]; ok {
			return
		}
		edges[s] = nil
		out := namedStructsIn(s, true)
		edges[s] = out
		for _, n := range out {
			add(n)
		}
	}
	for _, n := range namedStructsIn(t, false) {
		add(n)
	}
	var rec []reflect.Type
	for s := range edges {
		if reaches(edges, s, s) {
			rec = append(rec, s)
		}
	}
	slices.SortFunc(rec, func(a, b reflect.Type) int {
		return strings.Compare(a.PkgPath()+"."+a.String(), b.PkgPath()+"."+b.String())
	})
	return rec
}

// namedStructsIn lists the named struct types t leads to. With fieldsOnly, t
// is itself a named struct and its fields are searched instead of t.
func namedStructsIn(t reflect.Type, fieldsOnly bool) []reflect.Type {
	var out []reflect.Type
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, bool)
	walk = func(t reflect.Type, top bool) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			walk(t.Elem(), false)
		case reflect.Struct:
			if t.Name() != "" && !top {
				out = append(out, t)
				return
			}
			// The top struct is searched, not listed: let a field that
			// holds it list it.
			delete(seen, t)
			for _, f := range jsonFields(t) {
				walk(f.Type, false)
			}
		}
	}
	walk(t, fieldsOnly)
	return out
}

// reaches reports whether to is reachable from from in one or more steps.
func reaches(edges map[reflect.Type][]reflect.Type, from, to reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	stack := slices.Clone(edges[from])
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == to {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, edges[n]...)
	}
	return false
}

// jsonFields returns the fields of struct t that encoding/json (and
// jsonschema-go) encode: exported, not embedded (embedded structs contribute
// their promoted fields instead), not tagged `json:"-"`.
func jsonFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	seen := map[string]bool{}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() || f.Tag.Get("json") == "-" || seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		out = append(out, f)
	}
	return out
}

// flatten returns an unnamed struct type with the JSON fields of t (promoted
// fields inlined), so that jsonschema-go expands it even though t itself is
// mapped to a $ref.
func flatten(t reflect.Type) reflect.Type {
	fields := jsonFields(t)
	sf := make([]reflect.StructField, len(fields))
	for i, f := range fields {
		sf[i] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
	}
	return reflect.StructOf(sf)
}

// defNames names the $defs entries: the Go type name, made safe for a JSON
// pointer in a URI fragment, with a numeric suffix on collisions.
func defNames(types []reflect.Type) map[reflect.Type]string {
	names := make(map[reflect.Type]string, len(types))
	used := map[string]bool{}
	for _, t := range types {
		base := strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return '_'
		}, t.Name())
		name := base
		for i := 2; used[name]; i++ {
			name = base + "_" + strconv.Itoa(i)
		}
		used[name] = true
		names[t] = name
	}
	return names
}

// checkTags refuses the json tags for which jsonschema-go's schema would
// disagree with what encoding/json reads and writes: an embedded struct
// given a name (encoding/json nests it under that name, jsonschema-go
// flattens it) and the ",string" option (the value travels as a string, the
// schema says number or boolean).
func checkTags(t reflect.Type) error {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type) error
	walk = func(t reflect.Type) error {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if seen[t] {
			return nil
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			return walk(t.Elem())
		case reflect.Struct:
			for _, f := range reflect.VisibleFields(t) {
				tag := f.Tag.Get("json")
				name, opts, _ := strings.Cut(tag, ",")
				switch {
				case !f.IsExported() && !f.Anonymous, tag == "-":
					continue
				case f.Anonymous && name != "":
					return fmt.Errorf("field %v.%s: an embedded struct with a JSON name (%q) is not supported by schema inference, which would flatten it; make it a named field", t, f.Name, name)
				case slices.Contains(strings.Split(opts, ","), "string"):
					return fmt.Errorf("field %v.%s: the json \",string\" option is not supported by schema inference, whose schema would not expect a string; drop the option or use a string field", t, f.Name)
				}
				if !f.Anonymous {
					if err := walk(f.Type); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(t)
}

// falseSchema is jsonschema-go's spelling of the schema false ({"not": {}},
// marshalled as false).
func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

// isFalse reports whether s is the schema false as jsonschema-go builds it.
func isFalse(s *jsonschema.Schema) bool {
	if s == nil || s.Not == nil {
		return false
	}
	b, err := json.Marshal(s)
	return err == nil && string(b) == "false"
}

// walkSchemas calls f on s and every schema below it, parents first.
func walkSchemas(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	f(s)
	walkSubschemas(s, func(sub *jsonschema.Schema) { walkSchemas(sub, f) })
}

// walkSubschemas calls f on the immediate subschemas of s.
func walkSubschemas(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	forEachChild(s, func(_ string, sub *jsonschema.Schema) bool {
		if sub != nil {
			f(sub)
		}
		return true
	})
}
