package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// A union type is a struct whose fields are the variants: each a pointer
// to a struct, tagged `variant:"name"` with the name its discriminator
// property holds on the wire, exactly one set. The discriminator is
// "type" unless a blank field renames it:
//
//	type NoteTarget struct {
//		_        struct{}        `discriminator:"kind"`
//		Path     *PathTarget     `variant:"path"`
//		Active   *ActiveTarget   `variant:"active"`
//		Periodic *PeriodicTarget `variant:"periodic"`
//	}
//
// On the wire a union is the variant's object with the discriminator
// beside its fields: {"kind":"path","path":"a.md"}. Its schema is a oneOf
// of one object schema per variant, the discriminator a const among its
// required properties, so that a model sees each shape and the issues of
// an input name the variant it claimed (see claimedVariant). Decoding and
// encoding go through [Unions], since encoding/json writes the Go form of
// the struct (one key per field).

// DefaultDiscriminator is the discriminator property of a union type that
// does not name one.
const DefaultDiscriminator = "type"

// union describes a union type.
type union struct {
	typ      reflect.Type
	prop     string // the discriminator property
	variants []variant
}

// variant is one variant of a union.
type variant struct {
	name  string       // the discriminator's value
	key   string       // the field's key in encoding/json's form of the union
	field int          // the field's index in the union struct
	typ   reflect.Type // the struct the field points to
}

// unionOf describes t when it is a union type, nil when it is not (it
// has no field tagged variant), or says why it is no valid union.
func unionOf(t reflect.Type) (*union, error) {
	if t.Kind() != reflect.Struct {
		return nil, nil
	}
	tagged := false
	for i := range t.NumField() {
		if _, ok := t.Field(i).Tag.Lookup("variant"); ok {
			tagged = true
		}
	}
	if !tagged {
		return nil, nil
	}
	u := &union{typ: t, prop: DefaultDiscriminator}
	for i := range t.NumField() {
		f := t.Field(i)
		name, isVariant := f.Tag.Lookup("variant")
		switch {
		case f.Name == "_":
			if d, ok := f.Tag.Lookup("discriminator"); ok {
				if d == "" {
					return nil, fmt.Errorf("union %v: an empty discriminator tag; name the property, or leave the tag out for %q", t, DefaultDiscriminator)
				}
				u.prop = d
			}
			continue
		case !isVariant:
			return nil, fmt.Errorf("union %v: field %s has no variant tag; every field of a union is a variant, `variant:\"name\"`", t, f.Name)
		case f.Anonymous || !f.IsExported():
			return nil, fmt.Errorf("union %v: variant field %s must be an exported, named field", t, f.Name)
		case name == "":
			return nil, fmt.Errorf("union %v: field %s has an empty variant tag; give the name its discriminator holds", t, f.Name)
		case f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct:
			return nil, fmt.Errorf("union %v: variant field %s is %v; a variant is a pointer to a struct, set when it is the one", t, f.Name, f.Type)
		case slices.ContainsFunc(u.variants, func(v variant) bool { return v.name == name }):
			return nil, fmt.Errorf("union %v: variant %q is named twice", t, name)
		}
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if key == "-" {
			return nil, fmt.Errorf("union %v: variant field %s is tagged json:\"-\"", t, f.Name)
		}
		if key == "" {
			key = f.Name
		}
		u.variants = append(u.variants, variant{name: name, key: key, field: i, typ: f.Type.Elem()})
	}
	for _, v := range u.variants {
		for _, f := range jsonFields(v.typ) {
			// encoding/json matches keys without regard to case.
			if key, _, _ := strings.Cut(f.Tag.Get("json"), ","); strings.EqualFold(key, u.prop) || key == "" && strings.EqualFold(f.Name, u.prop) {
				return nil, fmt.Errorf("union %v: variant %q (%v) has a field %s named as the discriminator %q, which the union writes; drop the field or rename the discriminator", t, v.name, v.typ, f.Name, u.prop)
			}
		}
	}
	return u, nil
}

// addUnions puts into opts.TypeSchemas the schema of every union type
// that t holds (t included), nested unions before those that hold them.
// rec are the recursive types of t: a union on a cycle is refused.
func addUnions(t reflect.Type, rec []reflect.Type, opts *jsonschema.ForOptions) error {
	b := unionBuilder{opts: opts, rec: rec, state: map[reflect.Type]int{}}
	return b.within(t)
}

// unionBuilder builds the schemas of addUnions.
type unionBuilder struct {
	opts  *jsonschema.ForOptions
	rec   []reflect.Type
	state map[reflect.Type]int // of a union: 1 being built, 2 built
}

// within builds the schemas of the unions t holds, stopping at each.
func (b *unionBuilder) within(t reflect.Type) error {
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
		if _, ok := encodedTypes()[t]; ok {
			return nil
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			return walk(t.Elem())
		case reflect.Struct:
		default:
			return nil
		}
		u, err := unionOf(t)
		if err != nil {
			return err
		}
		if u != nil {
			return b.build(u)
		}
		for _, f := range jsonFields(t) {
			if err := walk(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(t)
}

// build adds the schema of u, after those of the unions its variants hold.
func (b *unionBuilder) build(u *union) error {
	switch b.state[u.typ] {
	case 1:
		return fmt.Errorf("union %v holds itself; a recursive union is not supported", u.typ)
	case 2:
		return nil
	}
	if slices.Contains(b.rec, u.typ) {
		return fmt.Errorf("union %v holds itself; a recursive union is not supported", u.typ)
	}
	b.state[u.typ] = 1
	for _, v := range u.variants {
		if err := b.within(v.typ); err != nil {
			return err
		}
	}
	s := &jsonschema.Schema{Type: "object"}
	for _, v := range u.variants {
		vt := v.typ
		if _, ok := b.opts.TypeSchemas[vt]; ok {
			vt = flatten(vt) // a recursive variant: expanded here, $ref below
		}
		vs, err := jsonschema.ForType(vt, b.opts)
		if err != nil {
			return fmt.Errorf("union %v, variant %q: %w", u.typ, v.name, err)
		}
		if vs.Properties == nil {
			vs.Properties = map[string]*jsonschema.Schema{}
		}
		vs.Properties[u.prop] = &jsonschema.Schema{Type: "string", Const: jsonschema.Ptr[any](v.name)}
		vs.Required = append([]string{u.prop}, vs.Required...)
		if len(vs.PropertyOrder) > 0 {
			vs.PropertyOrder = append([]string{u.prop}, vs.PropertyOrder...)
		}
		s.OneOf = append(s.OneOf, vs)
	}
	b.opts.TypeSchemas[u.typ] = s
	b.state[u.typ] = 2
	return nil
}
