package schema

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// issue is shorthand for an expected issue.
func issue(keyword, message string, path ...any) Issue {
	if path == nil {
		path = []any{}
	}
	return Issue{Path: path, Message: message, Keyword: keyword}
}

// The keywords a hand-written Tool.InputSchema may use, beyond those the
// inferred schemas exercise: each case is a schema, an instance (as
// arguments, through CheckJSON) and the issues it must have.
func TestHandWrittenKeywords(t *testing.T) {
	tests := []struct {
		name, schema, input string
		want                []Issue
	}{
		{"allOf, each part", `{"allOf":[{"required":["a"]},{"properties":{"b":{"type":"integer"}}}]}`,
			`{"b":"x"}`, []Issue{issue("required", `missing required property "a"`, "a"), issue("type", "expected integer, received string", "b")}},
		{"allOf valid", `{"allOf":[{"required":["a"]},{"properties":{"a":{"minimum":1}}}]}`, `{"a":1}`, nil},
		{"if then", `{"if":{"properties":{"kind":{"const":"company"}},"required":["kind"]},"then":{"required":["vat"]},"else":{"required":["name"]}}`,
			`{"kind":"company"}`, []Issue{issue("required", `missing required property "vat"`, "vat")}},
		{"if else", `{"if":{"properties":{"kind":{"const":"company"}},"required":["kind"]},"then":{"required":["vat"]},"else":{"required":["name"]}}`,
			`{"kind":"person"}`, []Issue{issue("required", `missing required property "name"`, "name")}},
		{"dependentRequired", `{"dependentRequired":{"card":["cvc","expiry"]}}`, `{"card":"1234","cvc":"1"}`,
			[]Issue{issue("dependentRequired", `missing property "expiry", required when "card" is present`, "expiry")}},
		{"dependentRequired absent trigger", `{"dependentRequired":{"card":["cvc"]}}`, `{"cvc":"1"}`, nil},
		{"prefixItems and items", `{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}`,
			`["a","b",true,3]`, []Issue{issue("type", "expected integer, received string", 1), issue("type", "expected boolean, received number", 3)}},
		{"items false after prefixItems", `{"type":"array","prefixItems":[{"type":"string"}],"items":false}`,
			`["a",1]`, []Issue{issue("false", "value not allowed here", 1)}},
		{"uniqueItems, numbers by value", `{"type":"array","uniqueItems":true}`, `[1,{"a":[1]},1.0]`,
			[]Issue{issue("uniqueItems", "expected unique items, items 0 and 2 are equal")}},
		{"uniqueItems, objects", `{"type":"array","uniqueItems":true}`, `[{"a":1,"b":[2]},{"b":[2],"a":1}]`,
			[]Issue{issue("uniqueItems", "expected unique items, items 0 and 1 are equal")}},
		{"uniqueItems, long", `{"type":"array","uniqueItems":true}`, `[` + strings.Repeat(`"x",`, 0) + seq(30) + `,7]`,
			[]Issue{issue("uniqueItems", "expected unique items, items 7 and 30 are equal")}},
		{"$ref to $defs", `{"$defs":{"pos":{"type":"integer","minimum":1}},"properties":{"n":{"$ref":"#/$defs/pos"}}}`,
			`{"n":0}`, []Issue{issue("minimum", "expected a number >= 1, received 0", "n")}},
		{"$ref with siblings", `{"$defs":{"s":{"type":"string"}},"properties":{"n":{"$ref":"#/$defs/s","maxLength":2}}}`,
			`{"n":"abc"}`, []Issue{issue("maxLength", "expected a string of at most 2 characters, received 3", "n")}},
		{"$ref to an anchor and to $id", `{"$id":"https://example.com/root","$defs":{"a":{"$anchor":"A","type":"string"},"b":{"$id":"b.json","type":"integer"}},
			"properties":{"x":{"$ref":"#A"},"y":{"$ref":"b.json"},"z":{"$ref":"https://example.com/root#/$defs/a"}}}`,
			`{"x":1,"y":"s","z":2}`, []Issue{issue("type", "expected string, received number", "x"),
				issue("type", "expected integer, received string", "y"), issue("type", "expected string, received number", "z")}},
		{"recursive $ref", `{"$defs":{"t":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}}}},"$ref":"#/$defs/t"}`,
			`{"v":1,"kids":[{"v":2,"kids":[{"v":"x"}]}]}`, []Issue{issue("type", "expected integer, received string", "kids", 0, "kids", 0, "v")}},
		{"anyOf, one left", `{"properties":{"a":{"anyOf":[{"type":"string","minLength":3},{"type":"integer"}]}}}`,
			`{"a":"ab"}`, []Issue{issue("minLength", "expected a string of at least 3 characters, received 2", "a")}},
		{"anyOf, none left", `{"properties":{"a":{"anyOf":[{"type":"string","minLength":3},{"type":"integer","minimum":5}]}}}`,
			`{"a":true}`, []Issue{issue("type", "expected string or integer, received boolean", "a")}},
		{"anyOf, several left", `{"anyOf":[{"required":["a"]},{"required":["b"]}]}`,
			`{}`, []Issue{issue("anyOf", "value matches none of the 2 allowed alternatives")}},
		{"oneOf, two match", `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, `3`,
			[]Issue{issue("oneOf", "value matches more than one of the allowed alternatives")}},
		{"oneOf, titled enum", `{"properties":{"c":{"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]}}}`,
			`{"c":"b"}`, []Issue{issue("oneOf", "value matches none of the 2 allowed alternatives", "c")}},
		{"not", `{"not":{"required":["secret"]}}`, `{"secret":1}`, []Issue{issue("not", "value matches a schema it must not match")}},
		{"const object", `{"const":{"a":[1,2]}}`, `{"a":[1,2.0]}`, nil},
		{"const null", `{"properties":{"n":{"const":null}}}`, `{"n":0}`, []Issue{issue("const", "expected null, received 0", "n")}},
		{"enum mixed", `{"enum":[1,"one",null]}`, `"two"`, []Issue{issue("enum", `expected one of 1, "one", null, received "two"`)}},
		{"minimum and maximum", `{"type":"number","minimum":-1.5,"maximum":10}`, `10.25`, []Issue{issue("maximum", "expected a number <= 10, received 10.25")}},
		{"exclusive bounds", `{"exclusiveMinimum":0,"exclusiveMaximum":1}`, `0`, []Issue{issue("exclusiveMinimum", "expected a number > 0, received 0")}},
		{"multipleOf decimal", `{"multipleOf":0.1}`, `0.3`, nil},
		{"multipleOf decimal fails", `{"multipleOf":0.1}`, `0.35`, []Issue{issue("multipleOf", "expected a multiple of 0.1, received 0.35")}},
		{"multipleOf big integer", `{"multipleOf":2}`, `9007199254740993`, []Issue{issue("multipleOf", "expected a multiple of 2, received 9007199254740993")}},
		{"multipleOf huge exponent", `{"multipleOf":5}`, `1e400`, nil},
		{"integer beyond float64", `{"type":"integer","maximum":9007199254740992}`, `9007199254740993`,
			[]Issue{issue("maximum", "expected a number <= 9007199254740992, received 9007199254740993")}},
		{"integer as 1.0", `{"type":"integer"}`, `1.0`, nil},
		{"integer 1e2", `{"type":"integer"}`, `1e2`, nil},
		{"not an integer beyond float64", `{"type":"integer"}`, `9007199254740993.5`, []Issue{issue("type", "expected integer, received number")}},
		{"tiny number against minimum 0", `{"exclusiveMinimum":0}`, `1e-999999999`, nil},
		{"minLength in code points", `{"type":"string","minLength":3,"maxLength":3}`, `"héé"`, nil},
		{"maxLength in code points", `{"type":"string","maxLength":2}`, `"😀😀😀"`, []Issue{issue("maxLength", "expected a string of at most 2 characters, received 3")}},
		{"pattern, unanchored RE2", `{"type":"string","pattern":"[0-9]{3}"}`, `"ab123cd"`, nil},
		{"an unknown format is an annotation", `{"type":"string","format":"hostname"}`, `"not a host!"`, nil},
		{"a known format asserts", `{"type":"string","format":"email"}`, `"not an email"`, []Issue{issue("format", `expected a string in the format "email"`)}},
		{"minItems maxItems", `{"type":"array","minItems":2,"maxItems":3}`, `[1]`, []Issue{issue("minItems", "expected an array of at least 2 items, received 1")}},
		{"min and maxProperties", `{"type":"object","minProperties":1,"maxProperties":1}`, `{"a":1,"b":2}`,
			[]Issue{issue("maxProperties", "expected an object with at most 1 property, received 2")}},
		{"unevaluatedProperties false with allOf", `{"allOf":[{"properties":{"a":{}}}],"properties":{"b":{}},"unevaluatedProperties":false}`,
			`{"a":1,"b":2,"c":3}`, []Issue{issue("unevaluatedProperties", `unrecognized key "c"`)}},
		{"unevaluatedProperties sees a failed branch's keys as unevaluated", `{"anyOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}],"unevaluatedProperties":false}`,
			`{"a":1,"b":2}`, []Issue{issue("unevaluatedProperties", `unrecognized key "a"`)}},
		{"unevaluatedItems false", `{"prefixItems":[{}],"unevaluatedItems":false}`, `[1,2]`, []Issue{issue("false", "value not allowed here", 1)}},
		{"additionalProperties schema", `{"properties":{"a":{}},"additionalProperties":{"type":"integer"}}`, `{"a":"x","b":"y"}`,
			[]Issue{issue("type", "expected integer, received string", "b")}},
		{"patternProperties", `{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"x-a":1,"y":2}`,
			[]Issue{issue("additionalProperties", `unrecognized key "y"`), issue("type", "expected string, received number", "x-a")}},
		{"propertyNames", `{"propertyNames":{"maxLength":2}}`, `{"ab":1,"abc":2}`, []Issue{issue("propertyNames", `invalid property name "abc"`)}},
		{"contains", `{"contains":{"type":"string"}}`, `[1,2]`, []Issue{issue("contains", "expected the array to contain at least one matching item")}},
		{"minContains", `{"contains":{"type":"string"},"minContains":2}`, `["a",2]`, []Issue{issue("minContains", "expected at least 2 matching items, received 1")}},
		{"dependentSchemas", `{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"a":1}`, []Issue{issue("required", `missing required property "b"`, "b")}},
		{"type list", `{"type":["string","null"]}`, `1`, []Issue{issue("type", "expected string or null, received number")}},
		{"boolean schema false", `{"properties":{"x":false}}`, `{"x":1}`, []Issue{issue("false", "value not allowed here", "x")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mustValidator(t, schemaFromJSON(t, tt.schema))
			_, res, err := v.CheckJSON([]byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Issues, tt.want) {
				t.Errorf("issues =\n%s\nwant\n%s", marshal(t, res.Issues), marshal(t, tt.want))
			}
			// Check, on the value as encoding/json decodes it (float64
			// numbers), agrees where float64 holds the number exactly.
			if !strings.Contains(tt.name, "beyond float64") && !strings.Contains(tt.name, "big integer") && !strings.Contains(tt.name, "exponent") && !strings.Contains(tt.name, "tiny") {
				if got := v.Check(decode(t, tt.input)); !reflect.DeepEqual(got.Issues, tt.want) {
					t.Errorf("Check: issues =\n%s\nwant\n%s", marshal(t, got.Issues), marshal(t, tt.want))
				}
			}
		})
	}
}

// seq is "0,1,…,n-1" as JSON array elements.
func seq(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprint(i)
	}
	return strings.Join(parts, ",")
}

func TestNewValidatorRefusals(t *testing.T) {
	for _, tt := range []struct{ schema, wantErr string }{
		{`{"type":"string","pattern":"("}`, "pattern"},
		{`{"multipleOf":0}`, "multipleOf"},
		{`{"minLength":-1}`, "minLength"},
		{`{"$ref":"#/$defs/missing"}`, "no schema at"},
		{`{"$ref":"#nowhere"}`, "no anchor"},
		{`{"$schema":"https://example.com/my-meta"}`, "only in-memory schemas"},
		{`{"items":[{"type":"string"}]}`, "prefixItems"},
	} {
		if _, err := NewValidator(schemaFromJSON(t, tt.schema)); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: err = %v, want it to mention %q", tt.schema, err, tt.wantErr)
		}
	}
}

// A schema whose references loop without consuming input is reported by
// Loops, and a value checked against it fails with an issue instead of
// overflowing the stack.
func TestLoops(t *testing.T) {
	for _, s := range []string{`{"type":"object","allOf":[{"$ref":"#"}]}`, `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`} {
		v := mustValidator(t, schemaFromJSON(t, s))
		if err := v.Loops(); err == nil || !strings.Contains(err.Error(), "references loop") {
			t.Errorf("%s: Loops = %v", s, err)
		}
		if res := v.Check(map[string]any{}); res.Valid() || res.Issues[0].Keyword != "$ref" {
			t.Errorf("%s: Check = %s", s, marshal(t, res))
		}
	}
	// Recursion through a property consumes input: no loop.
	if err := mustValidator(t, mustInput[node](t)).Loops(); err != nil {
		t.Errorf("node: %v", err)
	}
}

// oracleSchemas are hand-written schemas whose every keyword both
// validators implement the same way (jsonschema-go compares numbers as
// float64, so multipleOf stays integral here).
var oracleSchemas = []string{
	`{"type":"object","properties":{"a":{"type":"string","minLength":1,"maxLength":3},"b":{"type":"integer","minimum":0,"maximum":5}},"required":["a"],"additionalProperties":false}`,
	`{"type":"array","prefixItems":[{"type":"string"},{"type":"boolean"}],"items":{"type":"integer","multipleOf":2},"minItems":1,"maxItems":4,"uniqueItems":true}`,
	`{"anyOf":[{"type":"null"},{"type":"object","properties":{"x":{"enum":["a","b",1]}},"required":["x"]}]}`,
	`{"oneOf":[{"type":"integer"},{"type":"number","exclusiveMinimum":2},{"const":"a"}]}`,
	`{"allOf":[{"properties":{"a":{"type":"integer"}}},{"required":["b"]}],"not":{"required":["c"]}}`,
	`{"if":{"properties":{"a":{"const":1}},"required":["a"]},"then":{"required":["b"]},"else":{"properties":{"b":{"type":"string"}}}}`,
	`{"dependentRequired":{"a":["b"]},"dependentSchemas":{"b":{"properties":{"a":{"type":"boolean"}}}},"minProperties":1,"maxProperties":3}`,
	`{"$defs":{"t":{"type":"object","properties":{"v":{"type":"integer"},"k":{"type":"array","items":{"$ref":"#/$defs/t"}}},"required":["v"]}},"$ref":"#/$defs/t"}`,
	`{"properties":{"a":{}},"patternProperties":{"^b":{"type":"string"}},"additionalProperties":{"type":"integer"},"propertyNames":{"maxLength":2}}`,
	`{"type":"array","contains":{"type":"string"},"minContains":2,"maxContains":3}`,
	`{"allOf":[{"properties":{"a":{}}}],"anyOf":[{"properties":{"b":{}}},{"properties":{"c":{"type":"integer"}}}],"unevaluatedProperties":false}`,
	`{"prefixItems":[{"type":"integer"}],"allOf":[{"contains":{"type":"string"}}],"unevaluatedItems":{"type":"boolean"}}`,
	`{"type":["string","integer","null"],"pattern":"^[a-c]+$","minimum":-2,"exclusiveMaximum":3}`,
}

// TestAgreesWithJSONSchemaGo validates random small values with our walk
// and with jsonschema-go's own validator (the one the SDK links), which
// read the same *jsonschema.Schema: their verdicts must agree.
func TestAgreesWithJSONSchemaGo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	for _, src := range oracleSchemas {
		s := schemaFromJSON(t, src)
		v := mustValidator(t, s)
		resolved, err := schemaFromJSON(t, src).Resolve(nil)
		if err != nil {
			t.Fatalf("%s: Resolve: %v", src, err)
		}
		disagree, valid := 0, 0
		for range 3000 {
			inst := decode(t, marshal(t, randomValue(r, 0)))
			ours := v.Check(inst).Valid()
			if ours {
				valid++
			}
			theirs := resolved.Validate(inst) == nil
			if ours != theirs {
				disagree++
				if disagree <= 3 {
					t.Errorf("%s\ninstance %s: ours valid=%v, jsonschema-go valid=%v (%v)\nissues %s",
						src, marshal(t, inst), ours, theirs, resolved.Validate(inst), marshal(t, v.Check(inst)))
				}
			}
			// The report walk agrees with the validity walk.
			if full := fullIssues(t, v, inst); (full == nil) != ours {
				t.Fatalf("%s\ninstance %s: valid %v, but full issues %s", src, marshal(t, inst), ours, marshal(t, full))
			}
		}
		t.Logf("%d of 3000 valid: %s", valid, src)
	}
}

// randomValue is a small JSON value drawn from a vocabulary the oracle
// schemas care about.
func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(9)
	if depth > 3 {
		k %= 6
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return r.IntN(9) - 3
	case 3:
		return []float64{0.5, 2.5, 3, -1.5, 1e10}[r.IntN(5)]
	case 4, 5:
		return []string{"", "a", "ab", "abc", "abcd", "x", "ba", "é"}[r.IntN(8)]
	case 6, 7:
		m := map[string]any{}
		for range r.IntN(4) {
			m[[]string{"a", "b", "c", "v", "k", "x", "bb", "abc"}[r.IntN(8)]] = randomValue(r, depth+1)
		}
		return m
	}
	a := make([]any, r.IntN(5))
	for i := range a {
		a[i] = randomValue(r, depth+1)
	}
	return a
}

// The check of a valid value allocates nothing.
func TestValidCheckAllocatesNothing(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	inst := decode(t, benchValid)
	if n := testing.AllocsPerRun(100, func() { v.Check(inst) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
