package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestValidate(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	tests := []struct {
		name  string
		input string
		want  []Issue
	}{
		{
			name:  "valid",
			input: `{"query":"asthma","pmids":["1"],"limit":5,"filter":{"year":2020},"authors":[{"name":"Ada"}],"fail":true}`,
		},
		{
			name:  "null slice of a required field",
			input: `{"query":"asthma","pmids":null}`,
			want:  []Issue{{Path: []any{"pmids"}, Message: "expected array, received null", Keyword: "type"}},
		},
		{
			name:  "type mismatch at a nested path with an array index",
			input: `{"query":"q","pmids":[],"authors":[{"name":"Ada"},{"name":42}]}`,
			want:  []Issue{{Path: []any{"authors", 1, "name"}, Message: "expected string, received number", Keyword: "type"}},
		},
		{
			name:  "missing required",
			input: `{"query":"q"}`,
			want:  []Issue{{Path: []any{"pmids"}, Message: `missing required property "pmids"`, Keyword: "required"}},
		},
		{
			name:  "unknown top-level key rejected",
			input: `{"query":"q","pmids":[],"limt":5}`,
			want:  []Issue{{Path: []any{}, Message: `unrecognized key "limt"`, Keyword: "additionalProperties"}},
		},
		{
			name:  "nested unknown key allowed",
			input: `{"query":"q","pmids":[],"filter":{"year":2020,"month":3},"authors":[{"name":"Ada","born":1815}]}`,
		},
		{
			name:  "integer expected",
			input: `{"query":"q","pmids":[],"limit":2.5}`,
			want:  []Issue{{Path: []any{"limit"}, Message: "expected integer, received number", Keyword: "type"}},
		},
		{
			name:  "bounds of a small integer type",
			input: `{"query":"q","pmids":[],"page":300}`,
			want:  []Issue{{Path: []any{"page"}, Message: "expected a number <= 255, received 300", Keyword: "maximum"}},
		},
		{
			name:  "optional object given a string",
			input: `{"query":"q","pmids":[],"filter":"2020"}`,
			want:  []Issue{{Path: []any{"filter"}, Message: "expected object, received string", Keyword: "type"}},
		},
		{
			name:  "root not an object",
			input: `["q"]`,
			want:  []Issue{{Path: []any{}, Message: "expected object, received array", Keyword: "type"}},
		},
		{
			name: "several issues at once, sorted by path then keyword",
			input: `{"query":7,"zeta":1,"alpha":2,"page":-1,
				"filter":{"sort":1},"authors":[{"name":1},{"orcid":2}]}`,
			want: []Issue{
				{Path: []any{}, Message: `unrecognized key "alpha"`, Keyword: "additionalProperties"},
				{Path: []any{}, Message: `unrecognized key "zeta"`, Keyword: "additionalProperties"},
				{Path: []any{"authors", 0, "name"}, Message: "expected string, received number", Keyword: "type"},
				{Path: []any{"authors", 1, "name"}, Message: `missing required property "name"`, Keyword: "required"},
				{Path: []any{"authors", 1, "orcid"}, Message: "expected string, received number", Keyword: "type"},
				{Path: []any{"filter", "sort"}, Message: "expected string, received number", Keyword: "type"},
				{Path: []any{"filter", "year"}, Message: `missing required property "year"`, Keyword: "required"},
				{Path: []any{"page"}, Message: "expected a number >= 0, received -1", Keyword: "minimum"},
				{Path: []any{"pmids"}, Message: `missing required property "pmids"`, Keyword: "required"},
				{Path: []any{"query"}, Message: "expected string, received number", Keyword: "type"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, form := range []string{"Validate", "ValidateJSON"} {
				var got []Issue
				if form == "Validate" {
					got = v.Validate(decode(t, tt.input))
				} else {
					var err error
					if _, got, err = v.ValidateJSON([]byte(tt.input)); err != nil {
						t.Fatal(err)
					}
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("%s: issues =\n%s\nwant\n%s", form, marshal(t, got), marshal(t, tt.want))
				}
			}
		})
	}
}

// Map iteration order must not leak into the issue order.
func TestValidateDeterministic(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	in := `{"query":7,"pmids":[1,2,3,4,5,6],"a":1,"b":2,"c":3,"d":4,"e":5,"authors":[{"x":1},{"y":2},{"z":3}]}`
	first := marshal(t, v.Validate(decode(t, in)))
	for range 50 {
		if got := marshal(t, v.Validate(decode(t, in))); got != first {
			t.Fatalf("order changed:\n%s\n%s", first, got)
		}
	}
}

func TestIssueJSON(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	issues := v.Validate(decode(t, `{"query":"q","pmids":[],"authors":[{"name":1}],"x":0}`))
	want := `[{"path":[],"message":"unrecognized key \"x\"","keyword":"additionalProperties"},` +
		`{"path":["authors",0,"name"],"message":"expected string, received number","keyword":"type"}]`
	if got := marshal(t, issues); got != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}

func TestValidateGoValues(t *testing.T) {
	v := mustValidator(t, mustOutput[searchOutput](t))
	ok := searchOutput{Articles: []article{{PMID: "1", Title: "T"}}, Total: 1}
	if issues := v.Validate(ok); issues != nil {
		t.Errorf("struct: %s", marshal(t, issues))
	}
	if issues := v.Validate(&ok); issues != nil {
		t.Errorf("pointer: %s", marshal(t, issues))
	}
	// A map holding Go slices is converted too.
	if issues := v.Validate(map[string]any{"articles": []article{}, "total": 0}); issues != nil {
		t.Errorf("map of Go values: %s", marshal(t, issues))
	}
	got := v.Validate(map[string]any{"articles": []string{"x"}})
	want := []Issue{
		{Path: []any{"articles", 0}, Message: "expected object, received string", Keyword: "type"},
		{Path: []any{"total"}, Message: `missing required property "total"`, Keyword: "required"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("issues = %s", marshal(t, got))
	}
	if got := v.Validate(func() {}); len(got) != 1 || !strings.Contains(got[0].Message, "cannot be encoded as JSON") {
		t.Errorf("func value: %s", marshal(t, got))
	}
}

func TestMessages(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{
		"type": "object",
		"properties": {
			"status":  {"enum": ["active", "inactive"]},
			"version": {"const": 2},
			"nct":     {"type": "string", "pattern": "^NCT[0-9]{8}$"},
			"short":   {"type": "string", "minLength": 3, "maxLength": 5},
			"score":   {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
			"step":    {"type": "integer", "multipleOf": 5},
			"tags":    {"type": "array", "minItems": 1, "uniqueItems": true},
			"pair":    {"type": "array", "maxItems": 2},
			"opts":    {"type": "object", "minProperties": 1},
			"either":  {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 10}]},
			"never":   {"not": {"type": "string"}}
		}
	}`))
	tests := []struct {
		input, keyword, message string
	}{
		{`{"status":"gone"}`, "enum", `expected one of "active", "inactive", received "gone"`},
		{`{"version":3}`, "const", `expected 2, received 3`},
		{`{"nct":"NCT1"}`, "pattern", `expected a string matching the pattern "^NCT[0-9]{8}$"`},
		{`{"short":"ab"}`, "minLength", `expected a string of at least 3 characters, received 2`},
		{`{"short":"abcdef"}`, "maxLength", `expected a string of at most 5 characters, received 6`},
		{`{"score":0}`, "exclusiveMinimum", `expected a number > 0, received 0`},
		{`{"score":1.5}`, "exclusiveMaximum", `expected a number < 1, received 1.5`},
		{`{"step":7}`, "multipleOf", `expected a multiple of 5, received 7`},
		{`{"tags":[]}`, "minItems", `expected an array of at least 1 item, received 0`},
		{`{"tags":["a","b","a"]}`, "uniqueItems", `expected unique items, items 0 and 2 are equal`},
		{`{"pair":[1,2,3]}`, "maxItems", `expected an array of at most 2 items, received 3`},
		{`{"opts":{}}`, "minProperties", `expected an object with at least 1 property, received 0`},
		{`{"either":true}`, "type", `expected string or integer, received boolean`},
		{`{"either":5}`, "minimum", `expected a number >= 10, received 5`},
		{`{"never":"s"}`, "not", `value matches a schema it must not match`},
	}
	for _, tt := range tests {
		t.Run(tt.keyword, func(t *testing.T) {
			got := v.Validate(decode(t, tt.input))
			if len(got) != 1 || got[0].Keyword != tt.keyword || got[0].Message != tt.message {
				t.Errorf("%s: issues = %s, want keyword %s message %q", tt.input, marshal(t, got), tt.keyword, tt.message)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		name   string
		issues []Issue
		want   string
	}{
		{name: "empty", issues: nil, want: "Validation failed"},
		{name: "one at the root", issues: []Issue{{Path: []any{}, Message: `unrecognized key "limt"`}}, want: `unrecognized key "limt"`},
		{name: "with path", issues: []Issue{{Path: []any{"authors", 1, "name"}, Message: "expected string, received number"}},
			want: "at authors[1].name: expected string, received number"},
		{name: "more", issues: []Issue{
			{Path: []any{"a"}, Message: "expected string, received number"},
			{Path: []any{"b"}, Message: `missing required property "b"`, Keyword: "required"},
			{Path: []any{"c"}, Message: "expected a number >= 1, received 0"},
		}, want: `3 issues: at a: expected string, received number; missing required property "b"; at c: expected a number >= 1, received 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summary(tt.issues); got != tt.want {
				t.Errorf("Summary = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	s := mustInput[searchInput](t)
	s.Properties["fail"].Default = json.RawMessage(`true`)
	s.Properties["limit"].Default = json.RawMessage(`20`)
	s.Properties["filter"].Properties["sort"].Default = json.RawMessage(`"date"`)
	s.Properties["authors"].Items.Properties["orcid"].Default = json.RawMessage(`"none"`)
	s.Properties["pmids"].Default = json.RawMessage(`[]`) // a required field
	v := mustValidator(t, s)

	tests := []struct{ name, input, want string }{
		{"omitted", `{"query":"q"}`, `{"fail":true,"limit":20,"pmids":[],"query":"q"}`},
		{"explicit values win", `{"query":"q","pmids":["1"],"fail":false,"limit":1}`, `{"fail":false,"limit":1,"pmids":["1"],"query":"q"}`},
		{"nested object and array items", `{"query":"q","filter":{"year":1},"authors":[{"name":"a"},{"name":"b","orcid":"x"}]}`,
			`{"authors":[{"name":"a","orcid":"none"},{"name":"b","orcid":"x"}],"fail":true,"filter":{"sort":"date","year":1},"limit":20,"pmids":[],"query":"q"}`},
		{"absent parent object not created", `{"query":"q","filter":null}`, `{"fail":true,"limit":20,"pmids":[],"query":"q"}`},
		{"a null optional property gets its default", `{"query":"q","limit":null,"authors":[{"name":"a","orcid":null}]}`,
			`{"authors":[{"name":"a","orcid":"none"}],"fail":true,"limit":20,"pmids":[],"query":"q"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, issues, err := v.ValidateJSON([]byte(tt.input))
			if err != nil || issues != nil {
				t.Fatalf("ValidateJSON: %v %s", err, marshal(t, issues))
			}
			if string(args) != tt.want {
				t.Errorf("args = %s, want %s", args, tt.want)
			}
		})
	}

	// The filled-in arguments decode into the handler's type.
	args, _, _ := v.ValidateJSON([]byte(`{"query":"q"}`))
	var in searchInput
	if err := json.Unmarshal(args, &in); err != nil || !in.Fail || in.Limit != 20 || in.PMIDs == nil {
		t.Errorf("decoded %+v, %v", in, err)
	}
	// Absent arguments get the defaults too, and the still missing query.
	args, issues, err := v.ValidateJSON(nil)
	want := []Issue{{Path: []any{"query"}, Message: `missing required property "query"`, Keyword: "required"}}
	if err != nil || args != nil || !reflect.DeepEqual(issues, want) {
		t.Errorf("absent arguments: %s %v %s", args, err, marshal(t, issues))
	}
}

func TestValidateJSONWithoutDefaults(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	in := []byte(`{"query":"q","pmids":[],"limit":9007199254740993}`)
	args, issues, err := v.ValidateJSON(in)
	if err != nil || issues != nil || &args[0] != &in[0] {
		t.Errorf("want the input itself back: %s %v %v", args, issues, err)
	}
	if args, _, _ := v.ValidateJSON([]byte(" ")); args != nil {
		t.Errorf("absent arguments of a schema with required fields: %s", args)
	}
	type optional struct {
		Note string `json:"note,omitempty"`
	}
	if args, issues, _ := mustValidator(t, mustInput[optional](t)).ValidateJSON(nil); string(args) != "{}" || issues != nil {
		t.Errorf("absent arguments: %s %v", args, issues)
	}
}

func TestDefaultsCopied(t *testing.T) {
	s := schemaFromJSON(t, `{"type":"object","properties":{"opts":{"type":"object","default":{"tags":["a"]}}}}`)
	v := mustValidator(t, s)
	a, b := map[string]any{}, map[string]any{}
	v.applyDefaults(a, 1)
	a["opts"].(map[string]any)["tags"].([]any)[0] = "changed"
	v.applyDefaults(b, 1)
	if got := marshal(t, b); got != `{"opts":{"tags":["a"]}}` {
		t.Errorf("second instance = %s", got)
	}
}

func TestDefaultsThroughRef(t *testing.T) {
	s := mustInput[node](t)
	s.Defs["node"].Properties["kind"].Default = json.RawMessage(`"leaf"`)
	v := mustValidator(t, s)
	args, issues, err := v.ValidateJSON([]byte(`{"name":"r","children":[{"name":"a","children":[{"name":"b"}]}]}`))
	if err != nil || issues != nil {
		t.Fatalf("ValidateJSON: %v %v", err, issues)
	}
	// The root is expanded in place, not a $ref: its own copy has no default.
	want := `{"children":[{"children":[{"kind":"leaf","name":"b"}],"kind":"leaf","name":"a"}],"name":"r"}`
	if string(args) != want {
		t.Errorf("args = %s, want %s", args, want)
	}
}

func TestNewValidatorErrors(t *testing.T) {
	tests := []struct{ name, schema, wantErr string }{
		{"bad default", `{"type":"object","properties":{"n":{"type":"integer","default":"x"}}}`,
			"the default at #/properties/n does not match its schema: expected integer, received string"},
		{"remote ref refused", `{"$ref":"https://example.com/schema.json"}`, "only in-memory schemas"},
		{"file ref refused", `{"$ref":"file:///etc/passwd"}`, "only in-memory schemas"},
		{"relative ref refused", `{"$ref":"other.json"}`, "only in-memory schemas"},
		{"invalid schema", `{"type":"objekt"}`, "compiling schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewValidator(schemaFromJSON(t, tt.schema))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
	if _, err := NewValidator(nil); err == nil {
		t.Error("nil schema accepted")
	}
}

// An invalid subschema is refused whatever keywords its parent has after
// it: a later keyword that compiled must not hide the error, nor leave a
// node missing for the walk to dereference.
func TestNewValidatorSubschemaErrors(t *testing.T) {
	const want = `at #/$defs/a: type "foo" is not a JSON Schema type`
	for _, sibling := range []string{
		`"const": 1`, `"enum": [1]`, `"pattern": "a"`, `"errorMessage": {"pattern": "p"}`, `"default": 1`,
	} {
		for _, use := range []string{`"$ref": "#/$defs/a"`, `"items": {"$ref": "#/$defs/a"}`, `"allOf": [{"$ref": "#/$defs/a"}]`} {
			src := `{` + use + `, ` + sibling + `, "$defs": {"a": {"type": "foo"}}}`
			_, err := NewValidator(schemaFromJSON(t, src))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: err = %v, want it to contain %q", src, err, want)
			}
		}
	}
}

// A schema wrong in more than one place is refused with the same error
// whatever way its keywords are compiled: an error of the schema's own
// keywords (type, multipleOf, pattern, items as a list) before that of a
// subschema or of a negative count, which are said when nothing else is.
func TestNewValidatorWhichError(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"minLength": -1, "items": [{}]}`, `at #: items must be a schema in draft 2020-12`},
		{`{"minLength": -1, "minItems": -2}`, `at #: minLength must be a non-negative integer, not -1`},
		{`{"$ref": "#/$defs/a", "type": "foo", "$defs": {"a": {"type": "bar"}}}`, `at #: type "foo" is not a JSON Schema type`},
		{`{"$ref": "#/$defs/a", "multipleOf": 0, "$defs": {"a": {"type": "bar"}}}`, `at #: multipleOf must be greater than 0`},
		{`{"items": {"type": "bar"}, "minProperties": -1, "patternProperties": {"(": {}}}`, `at #: patternProperties "(": error parsing regexp`},
		{`{"maxContains": -1, "properties": {"a": {"type": "bar"}}, "default": 1}`, `at #: maxContains must be a non-negative integer, not -1`},
		{`{"allOf": [{"type": "bar"}], "patternProperties": {"(": {}}}`, `at #: patternProperties "(": error parsing regexp`},
		{`{"minItems": -1, "const": 1, "enum": [1], "pattern": "("}`, `at #: pattern "(": error parsing regexp`},
		{`{"allOf": [{"type": "bar"}], "minItems": -1}`, `at #: minItems must be a non-negative integer, not -1`},
	}
	for _, tt := range tests {
		_, err := NewValidator(schemaFromJSON(t, tt.schema))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tt.schema, err, tt.want)
		}
	}
}

// A hand-written 2020-12 schema of the kind the conformance suite's
// json_schema_2020_12_tool advertises.
func TestHandWritten2020Schema(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"$defs": {
			"address": {"$anchor": "addr", "type": "object",
				"properties": {"street": {"type": "string"}, "city": {"type": "string"}},
				"required": ["city"]}
		},
		"properties": {
			"name": {"type": "string"},
			"home": {"$ref": "#/$defs/address"},
			"work": {"$ref": "#addr"},
			"kind": {"enum": ["person", "company"]},
			"vat":  {"type": "string"}
		},
		"allOf": [{"required": ["name"]}],
		"if": {"properties": {"kind": {"const": "company"}}, "required": ["kind"]},
		"then": {"required": ["vat"]},
		"additionalProperties": false
	}`))
	if issues := v.Validate(decode(t, `{"name":"A","home":{"city":"X"},"work":{"city":"Y"},"kind":"person"}`)); issues != nil {
		t.Errorf("valid: %s", marshal(t, issues))
	}
	got := v.Validate(decode(t, `{"home":{"street":1},"work":{},"kind":"company","x":1}`))
	want := []Issue{
		{Path: []any{}, Message: `unrecognized key "x"`, Keyword: "additionalProperties"},
		{Path: []any{"home", "city"}, Message: `missing required property "city"`, Keyword: "required"},
		{Path: []any{"home", "street"}, Message: "expected string, received number", Keyword: "type"},
		{Path: []any{"name"}, Message: `missing required property "name"`, Keyword: "required"},
		{Path: []any{"vat"}, Message: `missing required property "vat"`, Keyword: "required"},
		{Path: []any{"work", "city"}, Message: `missing required property "city"`, Keyword: "required"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("issues =\n%s\nwant\n%s", marshal(t, got), marshal(t, want))
	}
}

func TestValidateJSONSyntaxError(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	for _, in := range []string{`{"query":`, `{} {}`, `nul`} {
		if _, _, err := v.ValidateJSON([]byte(in)); err == nil {
			t.Errorf("ValidateJSON(%q): no error", in)
		}
	}
}

// Large integers survive the decode and re-encode around defaults.
func TestValidateJSONNumbers(t *testing.T) {
	s := mustInput[searchInput](t)
	s.Properties["fail"].Default = json.RawMessage(`true`)
	v := mustValidator(t, s)
	args, issues, err := v.ValidateJSON([]byte(`{"query":"q","pmids":[],"limit":9007199254740993}`))
	if err != nil || issues != nil {
		t.Fatal(err, issues)
	}
	if want := `{"fail":true,"limit":9007199254740993,"pmids":[],"query":"q"}`; string(args) != want {
		t.Errorf("args = %s, want %s", args, want)
	}
}

func TestValidatorConcurrent(t *testing.T) {
	s := mustInput[searchInput](t)
	s.Properties["fail"].Default = json.RawMessage(`true`)
	v := mustValidator(t, s)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				_, issues, err := v.ValidateJSON([]byte(`{"query":1,"pmids":[],"x":1}`))
				if err != nil || len(issues) != 2 {
					t.Errorf("goroutine %d: %v %v", i, err, issues)
					return
				}
			}
		}()
	}
	wg.Wait()
}
