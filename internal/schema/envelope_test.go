package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

var contract = []Reason{
	{Reason: "no_match", When: "No requested PMID returned data"},
	{Reason: "queue_full", When: "Local request queue is at capacity."},
}

func TestEnvelopeValidates(t *testing.T) {
	env := Envelope(mustOutput[searchOutput](t), contract)
	v := mustValidator(t, env)

	// The other validator on the client side of the Go SDK must agree.
	resolved, err := env.Resolve(nil)
	if err != nil {
		t.Fatalf("jsonschema-go cannot resolve the envelope: %v", err)
	}

	success := marshal(t, searchOutput{Articles: []article{{PMID: "1", Title: "Asthma"}}, Total: 1})
	tests := []struct {
		name  string
		value string
		valid bool
	}{
		{"real success payload", success, true},
		{"real error envelope", `{"error":{"code":-32001,"message":"None of 3 PMIDs returned data",
			"data":{"reason":"no_match","recovery":{"hint":"Try pubmed_search_articles first."},"retryable":false}}}`, true},
		{"error without data", `{"error":{"code":-32603,"message":"boom"}}`, true},
		{"undeclared reason and extra data", `{"error":{"code":-32007,"message":"bad","data":{"reason":"from_service","issues":[]}}}`, true},
		{"empty object", `{}`, false},
		{"success missing a required field", `{"articles":[]}`, false},
		{"error without code", `{"error":{"message":"boom"}}`, false},
		{"code not an integer", `{"error":{"code":"x","message":"boom"}}`, false},
		{"recovery without hint", `{"error":{"code":1,"message":"m","data":{"recovery":{}}}}`, false},
		{"retryable not boolean", `{"error":{"code":1,"message":"m","data":{"retryable":"yes"}}}`, false},
		{"unknown top-level key", `{"error":{"code":1,"message":"m"},"extra":1}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			issues := v.Validate(decode(t, tt.value))
			if (issues == nil) != tt.valid {
				t.Errorf("valid = %v, want %v; issues %s", issues == nil, tt.valid, marshal(t, issues))
			}
			if err := resolved.Validate(decode(t, tt.value)); (err == nil) != tt.valid {
				t.Errorf("jsonschema-go: valid = %v, want %v (%v)", err == nil, tt.valid, err)
			}
		})
	}
}

func TestEnvelopeShape(t *testing.T) {
	env := Envelope(mustOutput[searchOutput](t), contract)
	if env.Type != "object" || env.Required != nil {
		t.Errorf("root type %q required %v; want object, none", env.Type, env.Required)
	}
	// The success fields keep their schemas.
	if env.Properties["articles"] == nil || env.Properties["total"].Type != "integer" {
		t.Errorf("success properties lost: %s", marshal(t, env.Properties))
	}
	wantAnyOf := `[{"required":["articles","total"],"not":{"required":["error"]}},{"required":["error"]}]`
	if got := marshal(t, env.AnyOf); got != wantAnyOf {
		t.Errorf("anyOf = %s\nwant %s", got, wantAnyOf)
	}
	errSchema := env.Properties["error"]
	if !slices.Equal(errSchema.Required, []string{"code", "message"}) || errSchema.AdditionalProperties != nil {
		t.Errorf("error = %s", marshal(t, errSchema))
	}
	reason := errSchema.Properties["data"].Properties["reason"]
	if reason.Type != "string" || reason.Enum != nil {
		t.Errorf("reason = %s; want a string, never an enum", marshal(t, reason))
	}
	for _, want := range []string{
		"`no_match`: No requested PMID returned data.",
		"`queue_full`: Local request queue is at capacity.",
		"Other values can come from below the handler",
	} {
		if !strings.Contains(reason.Description, want) {
			t.Errorf("reason description %q lacks %q", reason.Description, want)
		}
	}
	if !reflect.DeepEqual(reason.Examples, []any{"no_match", "queue_full"}) {
		t.Errorf("examples = %v", reason.Examples)
	}
	// The field order of the success schema is kept, error last.
	if got := marshal(t, env); !strings.HasPrefix(got, `{"type":"object","properties":{"articles":`) ||
		!strings.Contains(got, `"note":{"type":"string"},"error":`) {
		t.Errorf("marshalled envelope: %.200s", got)
	}
}

func TestEnvelopeWithoutContract(t *testing.T) {
	type optional struct {
		Note string `json:"note,omitempty"`
	}
	env := Envelope(mustOutput[optional](t), nil)
	reason := env.Properties["error"].Properties["data"].Properties["reason"]
	if reason.Examples != nil || reason.Description == "" || strings.Contains(reason.Description, "`") {
		t.Errorf("reason = %s", marshal(t, reason))
	}
	// No required success field: the first branch only forbids "error".
	if got := marshal(t, env.AnyOf[0]); got != `{"not":{"required":["error"]}}` {
		t.Errorf("anyOf[0] = %s", got)
	}
	v := mustValidator(t, env)
	if issues := v.Validate(decode(t, `{}`)); issues != nil {
		t.Errorf("{} with no required success field: %s", marshal(t, issues))
	}
	if issues := v.Validate(decode(t, `{"error":{"code":1,"message":"m"}}`)); issues != nil {
		t.Errorf("error envelope: %s", marshal(t, issues))
	}
}

func TestEnvelopeDoesNotModifySuccess(t *testing.T) {
	success := mustOutput[searchOutput](t)
	// Spare capacity would let a careless append write into the original.
	success.PropertyOrder = slices.Grow(success.PropertyOrder, 4)
	success.AnyOf = []*jsonschema.Schema{{Required: []string{"total"}}}
	before := marshal(t, success)
	order := slices.Clone(success.PropertyOrder)

	env := Envelope(success, contract)
	_ = Envelope(success, nil)

	if after := marshal(t, success); after != before {
		t.Errorf("success schema changed:\n%s\n%s", before, after)
	}
	if !slices.Equal(success.PropertyOrder, order) || slices.Contains(success.PropertyOrder[:cap(success.PropertyOrder)], "error") {
		t.Errorf("property order changed: %v", success.PropertyOrder[:cap(success.PropertyOrder)])
	}
	if _, ok := success.Properties["error"]; ok {
		t.Error("error property added to the success schema")
	}
	// The success schema still validates strictly.
	v := mustValidator(t, success)
	if issues := v.Validate(decode(t, `{"error":{"code":1,"message":"m"}}`)); issues == nil {
		t.Error("strict success schema accepts an error envelope")
	}
	// Root refinements were dropped from the envelope only.
	if len(env.AnyOf) != 2 || env.AnyOf[1].Required[0] != "error" {
		t.Errorf("envelope anyOf = %s", marshal(t, env.AnyOf))
	}
}

func TestEnvelopeRecursiveOutput(t *testing.T) {
	env := Envelope(mustOutput[node](t), contract)
	v := mustValidator(t, env)
	for _, ok := range []string{
		`{"name":"r","children":[{"name":"c"}]}`,
		`{"error":{"code":-32001,"message":"no such node","data":{"reason":"no_match"}}}`,
	} {
		if issues := v.Validate(decode(t, ok)); issues != nil {
			t.Errorf("%s: %s", ok, marshal(t, issues))
		}
	}
	// A nested node is not an envelope: $defs are untouched.
	if issues := v.Validate(decode(t, `{"name":"r","children":[{"error":{"code":1,"message":"m"}}]}`)); issues == nil {
		t.Error("nested error envelope accepted")
	}
	var decoded map[string]any
	if err := json.Unmarshal([]byte(marshal(t, env)), &decoded); err != nil || decoded["$defs"] == nil {
		t.Errorf("$defs lost: %v", err)
	}
}
