package schema

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Keyword tags: one struct tag per JSON Schema validation keyword, named as
// the keyword, so that a constraint is said where the field is declared
// (`minLength:"1" maxLength:"200"`) and published in the inferred schema.

// class is the JSON type a keyword constrains.
type class int

const (
	classString class = iota
	classNumber
	classArray
	classObject
)

// what names the fields a keyword of class c fits, for error messages.
func (c class) what() string {
	switch c {
	case classString:
		return "a string field (or a slice or map of strings)"
	case classNumber:
		return "a number field (or a slice or map of numbers)"
	case classArray:
		return "a slice or array field"
	}
	return "a map or struct field"
}

// fits reports whether a schema of the given types takes keywords of c.
func (c class) fits(types []string) bool {
	for _, t := range types {
		switch {
		case c == classString && t == "string",
			c == classNumber && (t == "number" || t == "integer"),
			c == classArray && t == "array",
			c == classObject && t == "object":
			return true
		}
	}
	return false
}

// keywordTag is one keyword tag: its name (the keyword's), the type it
// constrains, and how its value is set on a schema.
type keywordTag struct {
	name  string
	class class
	set   func(s *jsonschema.Schema, value string) error
}

// keywordTags are the keyword tags, in the order they are applied.
var keywordTags = []keywordTag{
	{"minLength", classString, setCount(func(s *jsonschema.Schema) **int { return &s.MinLength })},
	{"maxLength", classString, setCount(func(s *jsonschema.Schema) **int { return &s.MaxLength })},
	{"pattern", classString, func(s *jsonschema.Schema, v string) error {
		if _, err := regexp.Compile(v); err != nil {
			return err
		}
		s.Pattern = v
		return nil
	}},
	{"format", classString, func(s *jsonschema.Schema, v string) error {
		if _, ok := formats[v]; !ok {
			return fmt.Errorf("unknown format; use one of %s", strings.Join(formatNames(), ", "))
		}
		s.Format = v
		return nil
	}},
	{"minimum", classNumber, setNumber(func(s *jsonschema.Schema) **float64 { return &s.Minimum })},
	{"maximum", classNumber, setNumber(func(s *jsonschema.Schema) **float64 { return &s.Maximum })},
	{"exclusiveMinimum", classNumber, setNumber(func(s *jsonschema.Schema) **float64 { return &s.ExclusiveMinimum })},
	{"exclusiveMaximum", classNumber, setNumber(func(s *jsonschema.Schema) **float64 { return &s.ExclusiveMaximum })},
	{"multipleOf", classNumber, func(s *jsonschema.Schema, v string) error {
		if err := setNumber(func(s *jsonschema.Schema) **float64 { return &s.MultipleOf })(s, v); err != nil {
			return err
		}
		if *s.MultipleOf <= 0 {
			s.MultipleOf = nil
			return errors.New("want a number greater than 0")
		}
		return nil
	}},
	{"minItems", classArray, setCount(func(s *jsonschema.Schema) **int { return &s.MinItems })},
	{"maxItems", classArray, setCount(func(s *jsonschema.Schema) **int { return &s.MaxItems })},
	{"uniqueItems", classArray, func(s *jsonschema.Schema, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errors.New("want true or false")
		}
		s.UniqueItems = b
		return nil
	}},
	{"minProperties", classObject, setCount(func(s *jsonschema.Schema) **int { return &s.MinProperties })},
	{"maxProperties", classObject, setCount(func(s *jsonschema.Schema) **int { return &s.MaxProperties })},
}

// setCount sets a non-negative integer keyword (minLength, minItems, …).
func setCount(field func(*jsonschema.Schema) **int) func(*jsonschema.Schema, string) error {
	return func(s *jsonschema.Schema, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return errors.New("want a non-negative integer")
		}
		*field(s) = &n
		return nil
	}
}

// setNumber sets a number keyword (minimum, multipleOf, …).
func setNumber(field func(*jsonschema.Schema) **float64) func(*jsonschema.Schema, string) error {
	return func(s *jsonschema.Schema, v string) error {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return errors.New("want a finite number")
		}
		*field(s) = &f
		return nil
	}
}

// applyKeywords applies the keyword tags of field f to prop, its schema, or
// to the schema of its elements (see [tagger.target]).
func applyKeywords(a *tagger, prop *jsonschema.Schema, f reflect.StructField) error {
	var targets []*jsonschema.Schema
	for _, kw := range keywordTags {
		v, ok := f.Tag.Lookup(kw.name)
		if !ok {
			continue
		}
		target := a.target(prop, kw.class)
		if target == nil {
			return fmt.Errorf("a %s tag needs %s, not %v", kw.name, kw.class.what(), f.Type)
		}
		if err := kw.set(target, v); err != nil {
			return fmt.Errorf("%s %q: %v", kw.name, v, err)
		}
		if msg, ok := f.Tag.Lookup(kw.name + "Message"); ok {
			if err := setMessage(target, kw, msg); err != nil {
				return err
			}
		}
		if !slices.Contains(targets, target) {
			targets = append(targets, target)
		}
	}
	for _, kw := range keywordTags {
		if _, ok := f.Tag.Lookup(kw.name + "Message"); ok {
			if _, ok := f.Tag.Lookup(kw.name); !ok {
				return fmt.Errorf("a %sMessage tag needs a %s tag beside it", kw.name, kw.name)
			}
		}
	}
	for _, t := range targets {
		if err := contradiction(t); err != nil {
			return err
		}
	}
	return nil
}

// target returns the schema that takes a keyword of class c declared on a
// field whose schema is prop: prop itself when the keyword fits its type,
// else, for a string or number keyword, the schema of the elements of the
// slice or map prop describes (at any depth: [][]string); nil when none
// fits.
func (a *tagger) target(prop *jsonschema.Schema, c class) *jsonschema.Schema {
	n := prop
	for n != nil {
		r := a.resolve(n)
		if r == nil {
			return nil
		}
		types := r.Types
		if r.Type != "" {
			types = []string{r.Type}
		}
		switch {
		case c.fits(types):
			// On n, not on a $ref's definition, which other fields share.
			return n
		case c != classString && c != classNumber:
			return nil
		case slices.Contains(types, "array") && r.Items != nil:
			n = r.Items
		case slices.Contains(types, "object") && r.AdditionalProperties != nil && !isFalse(r.AdditionalProperties):
			n = r.AdditionalProperties
		default:
			return nil
		}
	}
	return nil
}

// contradiction reports a lower bound above its upper bound, which no value
// could meet.
func contradiction(s *jsonschema.Schema) error {
	pairs := []struct {
		lo, hi string
		l, h   *int
	}{
		{"minLength", "maxLength", s.MinLength, s.MaxLength},
		{"minItems", "maxItems", s.MinItems, s.MaxItems},
		{"minProperties", "maxProperties", s.MinProperties, s.MaxProperties},
	}
	for _, p := range pairs {
		if p.l != nil && p.h != nil && *p.l > *p.h {
			return fmt.Errorf("%s %d is above %s %d: no value fits", p.lo, *p.l, p.hi, *p.h)
		}
	}
	if s.Minimum != nil && s.Maximum != nil && *s.Minimum > *s.Maximum {
		return fmt.Errorf("minimum %v is above maximum %v: no value fits", *s.Minimum, *s.Maximum)
	}
	return nil
}

// setMessage gives the keyword kw of target an issue message of its own
// (a `patternMessage:"…"` tag beside `pattern:"…"`), published as
// errorMessage in ajv-errors' object form. Only string and number keywords
// take one: they are the ones whose default message says what the model
// must change.
func setMessage(target *jsonschema.Schema, kw keywordTag, msg string) error {
	if kw.class != classString && kw.class != classNumber {
		return fmt.Errorf("a %sMessage tag is not supported: messages replace those of string and number keywords", kw.name)
	}
	if strings.TrimSpace(msg) == "" {
		return fmt.Errorf("a %sMessage tag is empty", kw.name)
	}
	if target.Extra == nil {
		target.Extra = map[string]any{}
	}
	m, _ := target.Extra["errorMessage"].(map[string]any)
	if m == nil {
		m = map[string]any{}
		target.Extra["errorMessage"] = m
	}
	m[kw.name] = msg
	return nil
}
