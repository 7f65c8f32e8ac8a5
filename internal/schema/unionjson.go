package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Unions converts between the wire form of the union types a Go type
// holds (see union.go) and the form encoding/json reads and writes: on
// the wire a union is its variant's object with the discriminator beside
// its fields, {"type":"path","path":"a.md"}; for encoding/json it is the
// union struct, {"Path":{"path":"a.md"}}. Everything else passes as it is,
// key order included. The work is linear in the JSON, times the depth of
// the type's nesting of unions.
type Unions struct {
	root *layout
}

// layout is where the unions lie in a JSON value of some type: nil holds
// none.
type layout struct {
	union  *union
	arms   []*layout          // union: the layout of each variant's struct
	fields map[string]*layout // struct: by JSON key, the fields holding unions
	folded map[string]*layout // fields by lower-cased key, as encoding/json also matches
	elem   *layout            // slice, array, map: the elements
}

// UnionsOf returns the converter for t, nil when t holds no union type,
// or the error of an invalid one. Build it once per type.
func UnionsOf(t reflect.Type) (*Unions, error) {
	b := shapeBuilder{done: map[reflect.Type]*layout{}}
	s, err := b.layout(t)
	if err != nil || s == nil {
		return nil, err
	}
	return &Unions{root: s}, nil
}

// shapeBuilder builds shapes, once per type.
type shapeBuilder struct {
	done map[reflect.Type]*layout // nil value: being built, or holds none
}

// layout returns the layout of t.
func (b *shapeBuilder) layout(t reflect.Type) (*layout, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := b.done[t]; ok {
		return s, nil
	}
	if _, ok := encodedTypes()[t]; ok {
		return nil, nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		b.done[t] = nil
		elem, err := b.layout(t.Elem())
		if err != nil || elem == nil {
			return nil, err
		}
		s := &layout{elem: elem}
		b.done[t] = s
		return s, nil
	case reflect.Struct:
	default:
		return nil, nil
	}
	u, err := unionOf(t)
	if err != nil {
		return nil, err
	}
	// Registered before its fields: a recursive type reaches itself.
	s := &layout{union: u}
	b.done[t] = s
	if u != nil {
		for _, v := range u.variants {
			arm, err := b.layout(v.typ)
			if err != nil {
				return nil, err
			}
			s.arms = append(s.arms, arm)
		}
		return s, nil
	}
	for _, f := range jsonFields(t) {
		fs, err := b.layout(f.Type)
		if err != nil {
			return nil, err
		}
		if fs == nil {
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if key == "" {
			key = f.Name
		}
		if s.fields == nil {
			s.fields, s.folded = map[string]*layout{}, map[string]*layout{}
		}
		s.fields[key], s.folded[strings.ToLower(key)] = fs, fs
	}
	if s.fields == nil && !b.reachesSelf(t) {
		b.done[t] = nil
		return nil, nil
	}
	return s, nil
}

// reachesSelf reports whether t holds itself: its empty layout may then
// stand where a union lies further down the recursion, so it stays.
func (b *shapeBuilder) reachesSelf(t reflect.Type) bool {
	return reaches(map[reflect.Type][]reflect.Type{t: namedStructsIn(t, true)}, t, t)
}

// ToGo rewrites data, JSON as a client sent it (valid, as validation
// left it), into the form encoding/json decodes into the type. A nil
// Unions returns data as it is.
func (u *Unions) ToGo(data []byte) ([]byte, error) {
	return u.convert(data, true)
}

// ToWire rewrites data, the JSON encoding/json wrote for a value of the
// type, into the wire form. A union with no variant set, or with more
// than one, is an error. A nil Unions returns data as it is.
func (u *Unions) ToWire(data []byte) ([]byte, error) {
	return u.convert(data, false)
}

// convert is ToGo when toGo is set, else ToWire.
func (u *Unions) convert(data []byte, toGo bool) ([]byte, error) {
	if u == nil {
		return data, nil
	}
	r := rewriter{jsonScan: newJSONScan(data), toGo: toGo}
	r.out.Grow(len(data) + len(data)/8)
	i := r.space(0)
	if err := r.value(i, r.valueEnd(i), u.root); err != nil {
		return nil, err
	}
	return r.out.Bytes(), nil
}

// rewriter writes the JSON it scans with the unions rewritten: to the Go
// form when toGo, else to the wire's.
type rewriter struct {
	*jsonScan
	out  bytes.Buffer
	toGo bool
}

// value writes the value v[i:end], whose layout is l.
func (r *rewriter) value(i, end int, l *layout) error {
	v := r.v
	switch {
	case l == nil || v[i] != '{' && v[i] != '[':
		r.out.Write(v[i:end])
		return nil
	case l.union != nil && v[i] == '{':
		if r.toGo {
			return r.unionToGo(i, end, l)
		}
		return r.unionToWire(i, l)
	case l.elem != nil && v[i] == '[':
		r.out.WriteByte('[')
		for n, at := range r.elements(i) {
			if n > 0 {
				r.out.WriteByte(',')
			}
			if err := r.value(at, r.valueEnd(at), l.elem); err != nil {
				return err
			}
		}
		r.out.WriteByte(']')
		return nil
	case v[i] == '{' && (l.elem != nil || l.fields != nil):
		r.out.WriteByte('{')
		if err := r.members(i, l, false); err != nil {
			return err
		}
		r.out.WriteByte('}')
		return nil
	}
	r.out.Write(v[i:end])
	return nil
}

// members writes the members of the object at i, whose layout is l,
// without its braces; each after a comma when comma, else all but the
// first.
func (r *rewriter) members(i int, l *layout, comma bool) error {
	for n, m := range r.jsonScan.members(i) {
		if n > 0 || comma {
			r.out.WriteByte(',')
		}
		r.out.Write(m.key)
		r.out.WriteByte(':')
		if err := r.value(m.valueAt, m.end, l.member(m.key)); err != nil {
			return err
		}
	}
	return nil
}

// member is the layout of the member of an object of layout l under key
// (a JSON string): a map's element, or a struct's field as encoding/json
// matches it (exactly, else without regard to case).
func (l *layout) member(key []byte) *layout {
	if l.elem != nil {
		return l.elem
	}
	name := unquote(key)
	if f, ok := l.fields[name]; ok {
		return f
	}
	return l.folded[strings.ToLower(name)]
}

// unionToGo writes the union object v[i:end], in wire form, in Go form:
// the object under the key of the variant its discriminator names.
func (r *rewriter) unionToGo(i, end int, l *layout) error {
	u := l.union
	for _, m := range r.jsonScan.members(i) {
		if unquote(m.key) != u.prop {
			continue
		}
		var name string
		if json.Unmarshal(r.v[m.valueAt:m.end], &name) == nil {
			for n, vr := range u.variants {
				if vr.name == name {
					key, _ := json.Marshal(vr.key)
					r.out.WriteByte('{')
					r.out.Write(key)
					r.out.WriteString(":{")
					if err := r.members(i, l.armOrEmpty(n), false); err != nil {
						return err
					}
					r.out.WriteString("}}")
					return nil
				}
			}
		}
		return fmt.Errorf("%q holds %s, which names no variant of %v", u.prop, r.v[m.valueAt:m.end], u.typ)
	}
	return fmt.Errorf("a %v needs %q, the name of its variant", u.typ, u.prop)
}

// armOrEmpty is the layout of variant n of the union l, an empty struct
// layout when it holds no union.
func (l *layout) armOrEmpty(n int) *layout {
	if a := l.arms[n]; a != nil {
		return a
	}
	return &layout{}
}

// unionToWire writes the union object at i, in Go form, in wire form:
// the object of the one variant set, its discriminator first.
func (r *rewriter) unionToWire(i int, l *layout) error {
	u := l.union
	set := -1
	for _, m := range r.jsonScan.members(i) {
		name := unquote(m.key)
		for n, vr := range u.variants {
			if vr.key != name || r.v[m.valueAt] == 'n' {
				continue
			}
			if set >= 0 {
				return fmt.Errorf("%v has two variants set, %s and %s; set exactly one", u.typ, u.typ.Field(u.variants[set].field).Name, u.typ.Field(vr.field).Name)
			}
			set = n
			disc, _ := json.Marshal(u.prop)
			val, _ := json.Marshal(vr.name)
			r.out.WriteByte('{')
			r.out.Write(disc)
			r.out.WriteByte(':')
			r.out.Write(val)
			if err := r.members(m.valueAt, l.armOrEmpty(n), true); err != nil {
				return err
			}
			r.out.WriteByte('}')
		}
	}
	if set < 0 {
		return fmt.Errorf("%v has no variant set; set exactly one of its fields", u.typ)
	}
	return nil
}

// unquote is the string the JSON string key holds.
func unquote(key []byte) string {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key[1 : len(key)-1])
	}
	var s string
	json.Unmarshal(key, &s) // valid JSON: it cannot fail
	return s
}
