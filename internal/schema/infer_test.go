package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestInputInference(t *testing.T) {
	s := mustInput[searchInput](t)

	if s.Type != "object" {
		t.Errorf("root type = %q %v, want object (the SDK requires it)", s.Type, s.Types)
	}
	if !isFalse(s.AdditionalProperties) {
		t.Errorf("root additionalProperties = %s, want false", marshal(t, s.AdditionalProperties))
	}
	// Required is decided by omitempty/omitzero alone.
	if want := []string{"query", "pmids"}; !slices.Equal(s.Required, want) {
		t.Errorf("required = %v, want %v", s.Required, want)
	}
	// Descriptions come from the jsonschema tag, verbatim.
	if got := s.Properties["query"].Description; got != "Search terms, in PubMed syntax" {
		t.Errorf("query description = %q", got)
	}
	// Nested structs are reopened.
	for _, name := range []string{"filter", "authors"} {
		sub := s.Properties[name]
		if sub.Items != nil {
			sub = sub.Items
		}
		if sub.AdditionalProperties != nil {
			t.Errorf("%s: additionalProperties = %s, want absent", name, marshal(t, sub.AdditionalProperties))
		}
	}
	// One type per property: a slice is an array, a pointer its element's
	// type, not jsonschema-go's ["null", …]; uint8 is bounded.
	if p := s.Properties["pmids"]; p.Type != "array" || p.Types != nil {
		t.Errorf("pmids = %s, want type array", marshal(t, p))
	}
	if p := s.Properties["filter"]; p.Type != "object" || p.Types != nil {
		t.Errorf("filter = %s, want type object", marshal(t, p))
	}
	if p := s.Properties["page"]; p.Minimum == nil || *p.Minimum != 0 || p.Maximum == nil || *p.Maximum != 255 {
		t.Errorf("page = %s, want bounds 0..255", marshal(t, p))
	}
	// Field order is kept for the wire.
	if got := marshal(t, s); !strings.HasPrefix(got, `{"type":"object","properties":{"query":`) {
		t.Errorf("marshalled schema starts %.60s", got)
	}
}

func TestInputRootKinds(t *testing.T) {
	tests := []struct {
		name    string
		typ     reflect.Type
		wantErr string
		open    bool
	}{
		{name: "struct", typ: reflect.TypeFor[searchInput]()},
		{name: "pointer to struct", typ: reflect.TypeFor[*searchInput]()},
		{name: "map stays open", typ: reflect.TypeFor[map[string]any](), open: true},
		{name: "string", typ: reflect.TypeFor[string](), wantErr: "must be a struct or a map with string keys"},
		{name: "slice", typ: reflect.TypeFor[[]searchInput](), wantErr: "must be a struct or a map"},
		{name: "int keys", typ: reflect.TypeFor[map[int]string](), wantErr: "must be a struct or a map"},
		{name: "nil", typ: nil, wantErr: "nil"},
		{name: "unsupported field", typ: reflect.TypeFor[struct{ C chan int }](), wantErr: "unsupported"},
		{name: "named embedded struct", typ: reflect.TypeFor[struct {
			author `json:"author"`
		}](), wantErr: `embedded struct with a JSON name ("author")`},
		{name: "string option, nested", typ: reflect.TypeFor[struct {
			Items []struct {
				ID int64 `json:"id,string"`
			} `json:"items"`
		}](), wantErr: `json ",string" option`},
		{name: "unnamed embedded struct is flattened", typ: reflect.TypeFor[struct {
			author
			Extra string `json:"extra"`
		}]()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Input(tt.typ)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Type != "object" {
				t.Errorf("type = %q %v", s.Type, s.Types)
			}
			if isFalse(s.AdditionalProperties) == tt.open {
				t.Errorf("additionalProperties = %s, open = %v", marshal(t, s.AdditionalProperties), tt.open)
			}
		})
	}
}

func TestInputRecursive(t *testing.T) {
	s := mustInput[node](t)
	if s.Defs["node"] == nil {
		t.Fatalf("no $defs.node in %s", marshal(t, s))
	}
	if got := s.Properties["children"].Items.Ref; got != "#/$defs/node" {
		t.Errorf("children items $ref = %q", got)
	}
	// A pointer to a recursive type is its $ref, keeping the field's
	// description (an output schema's is anyOf[null, $ref], see TestOutputNullable).
	if got, want := marshal(t, s.Properties["parent"]), `{"$ref":"#/$defs/node","description":"The parent node"}`; got != want {
		t.Errorf("parent = %s, want %s", got, want)
	}
	// The root is strict, the definition (nested occurrences) is not.
	if !isFalse(s.AdditionalProperties) || s.Defs["node"].AdditionalProperties != nil {
		t.Errorf("root additionalProperties %s, def %s",
			marshal(t, s.AdditionalProperties), marshal(t, s.Defs["node"].AdditionalProperties))
	}

	v := mustValidator(t, s)
	in := `{"name":"root","children":[{"name":"a","extra":1},{"name":"b","children":[{"name":7}]}],
		"parent":{"name":"p","parent":"up"}}`
	got := v.Validate(decode(t, in))
	want := []Issue{
		{Path: []any{"children", 1, "children", 0, "name"}, Message: "expected string, received number", Keyword: "type"},
		{Path: []any{"parent", "parent"}, Message: "expected object, received string", Keyword: "type"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("issues =\n%s\nwant\n%s", marshal(t, got), marshal(t, want))
	}
	if issues := v.Validate(decode(t, `{"name":"r","children":[{"name":"a","children":[]}],"parent":{"name":"p"}}`)); issues != nil {
		t.Errorf("valid tree: %s", marshal(t, issues))
	}
	// An optional parent sent as null, at any depth, is taken as left out.
	args, issues, err := v.ValidateJSON([]byte(`{"name":"r","children":[{"name":"a","parent":null}],"parent":null}`))
	if err != nil || issues != nil || string(args) != `{"children":[{"name":"a"}],"name":"r"}` {
		t.Errorf("nulls for optional parents: %s %v %s", args, err, marshal(t, issues))
	}
}

func TestInputMutuallyRecursive(t *testing.T) {
	s := mustInput[dept](t)
	if s.Defs["dept"] == nil || s.Defs["employee"] == nil {
		t.Fatalf("$defs = %s", marshal(t, s.Defs))
	}
	v := mustValidator(t, s)
	got := v.Validate(decode(t, `{"name":"R&D","head":{"name":"Ada","dept":{"name":7}}}`))
	want := []Issue{{Path: []any{"head", "dept", "name"}, Message: "expected string, received number", Keyword: "type"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("issues = %s", marshal(t, got))
	}
	// A non-recursive type that reaches a recursive one has no $defs of its own.
	type wrapper struct {
		Tree node `json:"tree"`
	}
	w := mustInput[wrapper](t)
	if len(w.Defs) != 1 || w.Properties["tree"].Ref != "#/$defs/node" {
		t.Errorf("wrapper = %s", marshal(t, w))
	}
}

func TestOutput(t *testing.T) {
	tests := []struct {
		name    string
		typ     reflect.Type
		wantErr string
	}{
		{name: "struct", typ: reflect.TypeFor[searchOutput]()},
		{name: "pointer", typ: reflect.TypeFor[*searchOutput]()},
		{name: "map", typ: reflect.TypeFor[map[string]int]()},
		{name: "recursive", typ: reflect.TypeFor[node]()},
		{name: "error field", typ: reflect.TypeFor[struct {
			Error string `json:"error"`
		}](), wantErr: `top-level property "error"`},
		{name: "error by Go name", typ: reflect.TypeFor[struct{ Total int }](), wantErr: ""},
		{name: "error via json tag", typ: reflect.TypeFor[struct {
			Err string `json:"error,omitempty"`
		}](), wantErr: "reserved for the error envelope"},
		{name: "string", typ: reflect.TypeFor[string](), wantErr: "must be a struct or a map"},
		{name: "slice", typ: reflect.TypeFor[[]article](), wantErr: "output is a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Output(tt.typ)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Type != "object" {
				t.Errorf("type = %q", s.Type)
			}
		})
	}
	// A nested "error" is the author's business.
	type inner struct {
		Error string `json:"error"`
	}
	if _, err := Output(reflect.TypeFor[struct {
		Inner inner `json:"inner"`
	}]()); err != nil {
		t.Errorf("nested error field: %v", err)
	}
}

func TestStrict(t *testing.T) {
	tests := []struct {
		name, schema string
		wantAdd      string // marshalled additionalProperties, "" for absent
		wantUneval   string
	}{
		{name: "closed", schema: `{"type":"object","properties":{"a":{}}}`, wantAdd: "false"},
		{name: "opened by author", schema: `{"type":"object","additionalProperties":true}`, wantAdd: "true"},
		{name: "catch-all kept", schema: `{"type":"object","additionalProperties":{"type":"string"}}`, wantAdd: `{"type":"string"}`},
		{name: "union", schema: `{"type":"object","oneOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]}`, wantUneval: "false"},
		{name: "unevaluated kept", schema: `{"type":"object","unevaluatedProperties":true}`, wantUneval: "true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := schemaFromJSON(t, tt.schema)
			before := marshal(t, in)
			s := Strict(in)
			if after := marshal(t, in); after != before {
				t.Errorf("input mutated: %s", after)
			}
			gotAdd, gotUneval := "", ""
			if s.AdditionalProperties != nil {
				gotAdd = marshal(t, s.AdditionalProperties)
			}
			if s.UnevaluatedProperties != nil {
				gotUneval = marshal(t, s.UnevaluatedProperties)
			}
			if gotAdd != tt.wantAdd || gotUneval != tt.wantUneval {
				t.Errorf("additionalProperties %q unevaluatedProperties %q, want %q %q", gotAdd, gotUneval, tt.wantAdd, tt.wantUneval)
			}
		})
	}

	// Each variant of a strict union keeps its own keys and rejects others.
	v := mustValidator(t, Strict(schemaFromJSON(t, tests[3].schema)))
	if issues := v.Validate(decode(t, `{"b":"x"}`)); issues != nil {
		t.Errorf("variant b: %s", marshal(t, issues))
	}
	got := v.Validate(decode(t, `{"a":"x","c":1}`))
	want := []Issue{{Path: []any{}, Message: `unrecognized key "c"`, Keyword: "unevaluatedProperties"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("issues = %s", marshal(t, got))
	}
}

func TestParams(t *testing.T) {
	type promptArgs struct {
		Topic string  `json:"topic" jsonschema:"What to write about"`
		Tone  *string `json:"tone,omitempty"`
	}
	s, err := Params(reflect.TypeFor[promptArgs]())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Required, []string{"topic"}) || !isFalse(s.AdditionalProperties) {
		t.Errorf("schema = %s", marshal(t, s))
	}
	if _, err := Params(reflect.TypeFor[map[string]string]()); err != nil {
		t.Errorf("map[string]string: %v", err)
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[struct {
			ID int `json:"id"`
		}](),
		reflect.TypeFor[struct {
			Tags []string `json:"tags"`
		}](),
		reflect.TypeFor[map[string]int](),
		reflect.TypeFor[string](),
	} {
		if _, err := Params(typ); err == nil {
			t.Errorf("%v accepted", typ)
		} else if !strings.Contains(err.Error(), "string") {
			t.Errorf("%v: %v", typ, err)
		}
	}
}

func TestInputDefaultTag(t *testing.T) {
	type in struct {
		Fail  bool     `json:"fail,omitempty" default:"true"`
		Limit int      `json:"limit,omitempty" default:"10"`
		Order string   `json:"order,omitempty" default:"asc"`
		Quote string   `json:"quote,omitempty" default:"\"desc\""`
		Tags  []string `json:"tags,omitempty" default:"[\"a\"]"`
	}
	s, err := Input(reflect.TypeFor[in]())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"fail": "true", "limit": "10", "order": `"asc"`, "quote": `"desc"`, "tags": `["a"]`}
	for name, w := range want {
		if got := string(s.Properties[name].Default); got != w {
			t.Errorf("default of %s = %s, want %s", name, got, w)
		}
	}
	v, err := NewValidator(s)
	if err != nil {
		t.Fatal(err)
	}
	args, issues, err := v.ValidateJSON([]byte(`{"limit": 3}`))
	if err != nil || issues != nil {
		t.Fatalf("ValidateJSON: %v %v", err, issues)
	}
	var got in
	if err := json.Unmarshal(args, &got); err != nil {
		t.Fatal(err)
	}
	if !got.Fail || got.Limit != 3 || got.Order != "asc" || got.Quote != "desc" || len(got.Tags) != 1 {
		t.Errorf("decoded %+v, want defaults filled and limit 3 kept", got)
	}

	type bad struct {
		N int `json:"n" default:"ten"`
	}
	if _, err := Input(reflect.TypeFor[bad]()); err == nil || !strings.Contains(err.Error(), `default "ten"`) {
		t.Errorf("Input with a bad default: err = %v, want it to name the default", err)
	}
}

func TestPatternTag(t *testing.T) {
	type in struct {
		ID   string  `json:"id" pattern:"^[0-9]+$"`
		Slug *string `json:"slug,omitempty" pattern:"^[a-z-]+$"`
	}
	s, err := Params(reflect.TypeFor[in]())
	if err != nil {
		t.Fatal(err)
	}
	if s.Properties["id"].Pattern != "^[0-9]+$" || s.Properties["slug"].Pattern != "^[a-z-]+$" {
		t.Fatalf("patterns: %q %q", s.Properties["id"].Pattern, s.Properties["slug"].Pattern)
	}
	v, err := NewValidator(s)
	if err != nil {
		t.Fatal(err)
	}
	if issues := v.Validate(decode(t, `{"id":"123","slug":"a-b"}`)); issues != nil {
		t.Errorf("valid value: %v", issues)
	}
	issues := v.Validate(decode(t, `{"id":"../12"}`))
	if len(issues) != 1 || issues[0].Keyword != "pattern" {
		t.Errorf("issues = %v, want one pattern issue", issues)
	}

	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[struct {
			N int `json:"n" pattern:"^1$"`
		}](), "needs a string field"},
		{reflect.TypeFor[struct {
			S string `json:"s" pattern:"("`
		}](), `pattern "("`},
	} {
		if _, err := Input(tc.typ); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Input(%v): err = %v, want %q", tc.typ, err, tc.want)
		}
	}
}
