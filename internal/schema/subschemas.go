package schema

import (
	"maps"
	"slices"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
)

// keywordSubschemas are the subschemas that one keyword of a schema holds:
// one schema, a list, or a map by name. items holds a schema or, before
// draft 2020-12, a list.
type keywordSubschemas struct {
	keyword string
	one     *jsonschema.Schema
	list    []*jsonschema.Schema
	named   map[string]*jsonschema.Schema
}

// subschemaKeywords lists the keywords that hold subschemas, with those of
// s, in the order forEachChild visits them: the one list that indexing,
// JSON pointers and inference's walks read. It is an array, which the
// caller keeps on its stack.
func subschemaKeywords(s *jsonschema.Schema) [22]keywordSubschemas {
	return [...]keywordSubschemas{
		{keyword: "$defs", named: s.Defs},
		{keyword: "definitions", named: s.Definitions},
		{keyword: "properties", named: s.Properties},
		{keyword: "patternProperties", named: s.PatternProperties},
		{keyword: "dependentSchemas", named: s.DependentSchemas},
		{keyword: "dependencies", named: s.DependencySchemas},
		{keyword: "additionalProperties", one: s.AdditionalProperties},
		{keyword: "propertyNames", one: s.PropertyNames},
		{keyword: "unevaluatedProperties", one: s.UnevaluatedProperties},
		{keyword: "prefixItems", list: s.PrefixItems},
		{keyword: "items", one: s.Items, list: s.ItemsArray},
		{keyword: "additionalItems", one: s.AdditionalItems},
		{keyword: "contains", one: s.Contains},
		{keyword: "unevaluatedItems", one: s.UnevaluatedItems},
		{keyword: "allOf", list: s.AllOf},
		{keyword: "anyOf", list: s.AnyOf},
		{keyword: "oneOf", list: s.OneOf},
		{keyword: "not", one: s.Not},
		{keyword: "if", one: s.If},
		{keyword: "then", one: s.Then},
		{keyword: "else", one: s.Else},
		{keyword: "contentSchema", one: s.ContentSchema},
	}
}

// forEachChild calls f on each subschema of s with its path below s, in a
// fixed order, until f returns false.
func forEachChild(s *jsonschema.Schema, f func(path string, child *jsonschema.Schema) bool) {
	for _, k := range subschemaKeywords(s) {
		if !k.each(f) {
			return
		}
	}
}

// each calls f on the subschemas of k with their paths, names in sorted
// order, until f returns false, and reports whether it never did.
func (k *keywordSubschemas) each(f func(path string, child *jsonschema.Schema) bool) bool {
	if len(k.named) > 0 { // sorting allocates, even nothing
		for _, name := range slices.Sorted(maps.Keys(k.named)) {
			if !f("/"+k.keyword+"/"+escapePointer(name), k.named[name]) {
				return false
			}
		}
	}
	if k.one != nil && !f("/"+k.keyword, k.one) {
		return false
	}
	for i, c := range k.list {
		if !f("/"+k.keyword+"/"+strconv.Itoa(i), c) {
			return false
		}
	}
	return true
}

// subschemaKeyword returns the keyword of s named name, false when it
// holds no subschemas.
func subschemaKeyword(s *jsonschema.Schema, name string) (keywordSubschemas, bool) {
	for _, k := range subschemaKeywords(s) {
		if k.keyword == name {
			return k, true
		}
	}
	return keywordSubschemas{}, false
}

// at returns the subschema of k that a JSON pointer names with the tokens
// after the keyword's (a name, an index, or none), and how many tokens it
// took, the keyword's included; nil when there is none.
func (k *keywordSubschemas) at(rest []string) (*jsonschema.Schema, int) {
	switch {
	case k.named != nil:
		if len(rest) == 0 {
			return nil, 0
		}
		return k.named[rest[0]], 2
	case k.list != nil:
		if len(rest) == 0 {
			return nil, 0
		}
		i, err := strconv.Atoi(rest[0])
		if err != nil || i < 0 || i >= len(k.list) {
			return nil, 0
		}
		return k.list[i], 2
	}
	return k.one, 1
}
