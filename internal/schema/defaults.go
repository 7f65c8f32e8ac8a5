package schema

import (
	"errors"

	sv "github.com/santhosh-tekuri/jsonschema/v6"
)

// maxDefaultsDepth bounds the descent of fillDefaults, which follows $ref
// and so could loop on a schema that refers to itself without consuming
// input (the validator reports such a cycle).
const maxDefaultsDepth = 128

// fillDefaults does the work of Validator.applyDefaults below schema s.
func fillDefaults(s *sv.Schema, v any, depth int) {
	if s == nil || depth > maxDefaultsDepth {
		return
	}
	if s.Ref != nil {
		fillDefaults(s.Ref, v, depth+1)
	}
	for _, sub := range s.AllOf {
		fillDefaults(sub, v, depth+1)
	}
	switch v := v.(type) {
	case map[string]any:
		for name, ps := range s.Properties {
			if val, ok := v[name]; ok {
				fillDefaults(ps, val, depth+1)
			} else if d := defaultOf(ps); d != nil {
				v[name] = deepCopy(*d)
			}
		}
	case []any:
		for i, item := range v {
			switch {
			case i < len(s.PrefixItems):
				fillDefaults(s.PrefixItems[i], item, depth+1)
			case s.Items2020 != nil:
				fillDefaults(s.Items2020, item, depth+1)
			}
		}
	}
}

// dropNulls removes, in place, the null values of v's properties whose
// schema is in absent (optional properties that refuse null), below schema
// s, descending as fillDefaults does. It reports whether it removed any.
func dropNulls(s *sv.Schema, v any, absent map[*sv.Schema]bool, depth int) bool {
	if s == nil || depth > maxDefaultsDepth {
		return false
	}
	dropped := false
	if s.Ref != nil {
		dropped = dropNulls(s.Ref, v, absent, depth+1)
	}
	for _, sub := range s.AllOf {
		dropped = dropNulls(sub, v, absent, depth+1) || dropped
	}
	switch v := v.(type) {
	case map[string]any:
		for name, ps := range s.Properties {
			val, ok := v[name]
			switch {
			case !ok:
			case val == nil && absent[ps]:
				delete(v, name)
				dropped = true
			default:
				dropped = dropNulls(ps, val, absent, depth+1) || dropped
			}
		}
	case []any:
		for i, item := range v {
			switch {
			case i < len(s.PrefixItems):
				dropped = dropNulls(s.PrefixItems[i], item, absent, depth+1) || dropped
			case s.Items2020 != nil:
				dropped = dropNulls(s.Items2020, item, absent, depth+1) || dropped
			}
		}
	}
	return dropped
}

// defaultOf is the default of s, or of the schema its $ref names.
func defaultOf(s *sv.Schema) *any {
	if s.Default == nil && s.Ref != nil {
		return s.Ref.Default
	}
	return s.Default
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// walkCompiled calls f once on every schema reachable from s.
func walkCompiled(s *sv.Schema, f func(*sv.Schema)) {
	seen := map[*sv.Schema]bool{}
	var walk func(*sv.Schema)
	walk = func(s *sv.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		f(s)
		for _, x := range []*sv.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else,
			s.PropertyNames, s.UnevaluatedProperties, s.Contains, s.Items2020,
			s.UnevaluatedItems, s.ContentSchema} {
			walk(x)
		}
		if s.DynamicRef != nil {
			walk(s.DynamicRef.Ref)
		}
		for _, list := range [][]*sv.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, x := range list {
				walk(x)
			}
		}
		for _, x := range s.Properties {
			walk(x)
		}
		for _, x := range s.PatternProperties {
			walk(x)
		}
		for _, x := range s.DependentSchemas {
			walk(x)
		}
		for _, d := range s.Dependencies {
			if x, ok := d.(*sv.Schema); ok {
				walk(x)
			}
		}
		for _, a := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
			switch a := a.(type) {
			case *sv.Schema:
				walk(a)
			case []*sv.Schema:
				for _, x := range a {
					walk(x)
				}
			}
		}
	}
	walk(s)
}

// describeErr renders a validation error of v as the summary of its issues.
func describeErr(err error, v any) string {
	var ve *sv.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	return Summary(issuesOf(ve, v))
}
