package schema

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The bound FuzzValidationWork holds every validation to: work (schema
// nodes evaluated, values hashed or compared, pattern steps; see walker)
// per byte of the input, and a constant for small inputs.
const (
	fuzzWorkPerByte = 64
	fuzzWorkSlack   = 4096
)

// fuzzSchemas are schemas with the shapes that once cost more than linear
// work: a recursive union, uniqueItems over numbers, an allOf naming one
// schema twice, a pattern behind maxLength, multipleOf, $dynamicRef, and
// the keywords the report walk decides by validity (not, if, oneOf).
var fuzzSchemas = []string{
	exprSchema,
	`{"type":"object","properties":{"query":{"type":"string","minLength":3,"maxLength":200},
		"pmids":{"type":"array","maxItems":10,"uniqueItems":true,"items":{"type":"string","pattern":"^[0-9]+$"}}}}`,
	`{"type":"array","uniqueItems":true,"items":{"anyOf":[{"type":"number"},{"type":"array","uniqueItems":true}]}}`,
	`{"$defs":{"t":{"allOf":[{"$ref":"#/$defs/u"},{"$ref":"#/$defs/u"}]},
		"u":{"type":"object","properties":{"x":{"$ref":"#/$defs/t"},"n":{"type":"integer","multipleOf":3}}}},
		"$ref":"#/$defs/t"}`,
	`{"type":"object","properties":{"s":{"type":"string","maxLength":64,"pattern":"^[a-z]{1,40}x$","format":"email"},
		"n":{"type":"number","multipleOf":0.7,"maximum":1e300}}}`,
	`{"$defs":{"n":{"$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}},
		"$dynamicAnchor":"node","$ref":"#/$defs/n","unevaluatedProperties":false,"properties":{"v":{"type":"integer"}}}`,
	`{"$defs":{"e":{"oneOf":[{"type":"string"},{"type":"array","items":{"$ref":"#/$defs/e"}},
		{"type":"object","if":{"required":["k"]},"then":{"properties":{"k":{"const":1}}},"else":{"not":{"required":["z"]}},
		"additionalProperties":{"$ref":"#/$defs/e"}}]}},"$ref":"#/$defs/e"}`,
}

// FuzzValidationWork validates any JSON against schemas with every shape
// that once cost more than linear work, and fails when a validation's
// work passes fuzzWorkPerByte per byte of the input: its property is time
// per byte, measured by the walk's deterministic count.
func FuzzValidationWork(f *testing.F) {
	var validators []*Validator
	for _, s := range fuzzSchemas {
		validators = append(validators, mustValidator(f, schemaFromJSON(f, s)))
	}
	nested := func(depth int, open, close string) string {
		return strings.Repeat(open, depth) + "1" + strings.Repeat(close, depth)
	}
	var huge strings.Builder
	for i := range 40 {
		fmt.Fprintf(&huge, "%de400,", i+1)
	}
	for _, seed := range []string{
		string(exprChain(20, "or", "1")),
		string(exprChain(20, "and", `"x"`)),
		`{"query":"sleep","pmids":[` + huge.String() + `1]}`,
		`[` + huge.String() + `[1,1.0]]`,
		nested(30, `{"x":`, `}`),
		`{"s":"` + strings.Repeat("a", 200) + `","n":7e400}`,
		`{"v":1,"kids":[{"kids":[{"kids":[],"w":1}]}]}`,
		nested(20, `[`, `]`),
		`{"a":{"k":2,"b":["s",{"z":1}]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		limit := fuzzWorkPerByte*len(data) + fuzzWorkSlack
		for i, v := range validators {
			_, _, work, err := v.checkJSON(context.Background(), data)
			if err != nil {
				t.Fatalf("schema %d: %v", i, err)
			}
			if testing.Verbose() {
				t.Logf("schema %d: %d bytes, work %d (%.1f a byte)", i, len(data), work, float64(work)/float64(len(data)))
			}
			if work > limit {
				t.Fatalf("schema %d: work %d for %d bytes (limit %d): %q", i, work, len(data), limit, data)
			}
		}
	})
}
