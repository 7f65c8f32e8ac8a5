package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// portableInput has every Go shape jsonschema-go makes nullable.
type portableInput struct {
	IDs      []string          `json:"ids" jsonschema:"required, so never null"`
	Tags     []string          `json:"tags,omitempty" jsonschema:"optional: absent or null is nil"`
	Labels   map[string]string `json:"labels,omitempty"`
	Note     *string           `json:"note,omitempty"`
	Count    *int              `json:"count,omitempty"`
	Filter   *filter           `json:"filter,omitempty"`
	Optional []*string         `json:"optional,omitempty"`
	Scores   map[string]*int   `json:"scores,omitempty"`
	Authors  []author          `json:"authors,omitempty"`
	Tree     *node             `json:"tree,omitempty"`
	Zero     []int             `json:"zero,omitzero"`
}

// multiTyped returns the JSON pointers of the schemas in doc (a decoded
// schema) whose type is a list, or that are the type null alone.
func multiTyped(doc any, at string) []string {
	var out []string
	switch doc := doc.(type) {
	case map[string]any:
		switch ty := doc["type"].(type) {
		case []any:
			out = append(out, at)
		case string:
			if ty == "null" {
				out = append(out, at)
			}
		}
		for k, v := range doc {
			out = append(out, multiTyped(v, at+"/"+k)...)
		}
	case []any:
		for i, v := range doc {
			out = append(out, multiTyped(v, at+"/"+strings.Repeat("i", i+1))...)
		}
	}
	return out
}

// An input schema has one type per property, everywhere, and says
// optionality through required alone.
func TestInputPortable(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[portableInput](), reflect.TypeFor[searchInput](), reflect.TypeFor[node](), reflect.TypeFor[dept]()} {
		s, err := Input(typ)
		if err != nil {
			t.Fatal(err)
		}
		if bad := multiTyped(decode(t, marshal(t, s)), ""); len(bad) > 0 {
			t.Errorf("%v: several types, or null, at %v:\n%s", typ, bad, marshal(t, s))
		}
	}
	s := mustInput[portableInput](t)
	for name, want := range map[string]string{
		"ids": "array", "tags": "array", "labels": "object", "note": "string", "count": "integer",
		"filter": "object", "optional": "array", "scores": "object", "authors": "array", "zero": "array",
	} {
		if got := s.Properties[name].Type; got != want {
			t.Errorf("%s: type %q, want %q", name, got, want)
		}
	}
	if got := s.Properties["optional"].Items.Type; got != "string" {
		t.Errorf("optional items: type %q, want string", got)
	}
	if got := s.Properties["scores"].AdditionalProperties.Type; got != "integer" {
		t.Errorf("scores values: type %q, want integer", got)
	}
	if got := marshal(t, s.Properties["tree"]); got != `{"$ref":"#/$defs/node"}` {
		t.Errorf("tree = %s", got)
	}
	if got := marshal(t, s.Required); got != `["ids"]` {
		t.Errorf("required = %s", got)
	}
	if got := s.Properties["tags"].Description; got != "optional: absent or null is nil" {
		t.Errorf("tags description = %q", got)
	}
}

// A null for an optional property is the property left out; anywhere else
// it is refused, with an issue that says so.
func TestNullIsAbsent(t *testing.T) {
	v := mustValidator(t, mustInput[portableInput](t))
	tests := []struct {
		name, input string
		args        string // the arguments handed to the handler; "" when refused
		issues      []Issue
	}{
		{name: "optional properties", input: `{"ids":[],"tags":null,"labels":null,"note":null,"count":null,"filter":null,"tree":null,"zero":null}`,
			args: `{"ids":[]}`},
		{name: "nested optional properties", input: `{"ids":["1"],"filter":{"year":1,"sort":null},"authors":[{"name":"a","orcid":null}],"tree":{"name":"t","parent":{"name":"p","kind":null}}}`,
			args: `{"authors":[{"name":"a"}],"filter":{"year":1},"ids":["1"],"tree":{"name":"t","parent":{"name":"p"}}}`},
		{name: "nothing to drop: the arguments as sent", input: `{"ids": ["1"], "note": "n"}`, args: `{"ids": ["1"], "note": "n"}`},
		{name: "required", input: `{"ids":null}`,
			issues: []Issue{{Path: []any{"ids"}, Message: "expected array, received null", Keyword: "type"}}},
		{name: "required, nested", input: `{"ids":[],"filter":{"year":null},"authors":[{"name":null}]}`,
			issues: []Issue{
				{Path: []any{"authors", 0, "name"}, Message: "expected string, received null", Keyword: "type"},
				{Path: []any{"filter", "year"}, Message: "expected integer, received null", Keyword: "type"},
			}},
		{name: "array elements and map values", input: `{"ids":[null],"optional":["a",null],"scores":{"x":null}}`,
			issues: []Issue{
				{Path: []any{"ids", 0}, Message: "expected string, received null", Keyword: "type"},
				{Path: []any{"optional", 1}, Message: "expected string, received null", Keyword: "type"},
				{Path: []any{"scores", "x"}, Message: "expected integer, received null", Keyword: "type"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, res, err := v.CheckJSON([]byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if string(args) != tt.args || !reflect.DeepEqual(res.Issues, tt.issues) {
				t.Errorf("args %s, issues %s; want %s, %s", args, marshal(t, res.Issues), tt.args, marshal(t, tt.issues))
			}
			if args == nil {
				return
			}
			var in portableInput
			if err := json.Unmarshal(args, &in); err != nil {
				t.Errorf("the arguments do not decode: %v", err)
			}
		})
	}
	// Check validates against the published schema, as sent: no null.
	if res := v.Check(decode(t, `{"ids":[],"tags":null}`)); len(res.Issues) != 1 || res.Issues[0].Message != "expected array, received null" {
		t.Errorf("Check: %s", marshal(t, res))
	}
	// Where a hand-written schema accepts null, null is kept.
	hand := mustValidator(t, schemaFromJSON(t, `{"type":"object","properties":{
		"a":{"type":["null","string"]},"b":{"anyOf":[{"type":"null"},{"type":"integer"}]},"c":{}},"additionalProperties":false}`))
	if args, res, err := hand.CheckJSON([]byte(`{"a":null,"b":null,"c":null}`)); err != nil || !res.Valid() || string(args) != `{"a":null,"b":null,"c":null}` {
		t.Errorf("nullable, hand-written: %s %v %s", args, err, marshal(t, res))
	}
}

type portableOutput struct {
	Articles []article       `json:"articles" jsonschema:"the articles found"`
	Counts   map[string]int  `json:"counts"`
	Note     *string         `json:"note"`
	Best     *article        `json:"best"`
	Ranks    []*int          `json:"ranks"`
	Tree     *node           `json:"tree"`
	Nested   []portableInner `json:"nested,omitempty"`
}

type portableInner struct {
	Tags []string `json:"tags"`
}

// An output schema stays nullable where Go encodes null (a nil slice, map or
// pointer), written as anyOf branches of one type each.
func TestOutputNullable(t *testing.T) {
	s := mustOutput[portableOutput](t)
	doc := decode(t, marshal(t, s))
	if bad := multiTyped(doc, ""); len(bad) == 0 {
		t.Fatalf("no null branch in %s", marshal(t, s))
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if _, ok := x["type"].([]any); ok {
				t.Errorf("a type list: %s", marshal(t, x))
			}
			for _, v := range x {
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(doc)
	if got, want := marshal(t, s.Properties["articles"]),
		`{"description":"the articles found","anyOf":[{"type":"null"},{"type":"array","items":{"type":"object","properties":{"pmid":{"type":"string"},"title":{"type":"string"}},"required":["pmid","title"],"additionalProperties":false}}]}`; got != want {
		t.Errorf("articles =\n%s\nwant\n%s", got, want)
	}
	v := mustValidator(t, Envelope(s, nil))
	if !v.Bounded() {
		t.Error("the output validator is not bounded")
	}
	// What a handler returns with every slice, map and pointer nil.
	if res := v.Check(portableOutput{}); !res.Valid() {
		t.Errorf("nil fields: %s", marshal(t, res))
	}
	one := 1
	full := portableOutput{Articles: []article{{PMID: "1", Title: "t"}}, Counts: map[string]int{"a": 1}, Note: new(string),
		Best: &article{}, Ranks: []*int{&one, nil}, Tree: &node{Name: "n"}, Nested: []portableInner{{}}}
	if res := v.Check(full); !res.Valid() {
		t.Errorf("full: %s", marshal(t, res))
	}
	got := v.Check(decode(t, `{"articles":"x","counts":null,"note":null,"best":null,"ranks":null,"tree":{"name":1}}`))
	want := []Issue{
		{Path: []any{"articles"}, Message: "expected array or null, received string", Keyword: "type"},
		{Path: []any{"tree", "name"}, Message: "expected string, received number", Keyword: "type"},
	}
	if !reflect.DeepEqual(got.Issues, want) {
		t.Errorf("issues = %s", marshal(t, got.Issues))
	}
}
