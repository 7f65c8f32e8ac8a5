package schema

import (
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Reason is one declared failure mode of a tool, as [Envelope] advertises it:
// the machine-readable data.reason and the human sentence saying when it
// happens.
type Reason struct {
	Reason string
	When   string
}

// Envelope returns the output schema a tool advertises: success widened so
// that the error envelope validates too, because clients (the TypeScript SDK
// among them) validate structuredContent against outputSchema even when
// isError is true. success (an object schema, as from [Output]) is not
// modified; dispatch keeps validating results against it.
//
// In the widened schema every success field is optional, and root-level
// refinements of the success schema (allOf, anyOf, not, if/then/else,
// dependentRequired, dependentSchemas) are dropped, but for oneOf, the
// variants of a union output, which the success branch keeps; an optional "error"
// property describes {code, message, data?}, whose data.reason lists the
// declared reasons in its description and examples (never as an enum: a
// reason can also come from below the handler); and a root anyOf requires
// either the success fields that were required and no "error", or "error".
// So {} is rejected and a real failure validates.
func Envelope(success *jsonschema.Schema, reasons []Reason) *jsonschema.Schema {
	var s *jsonschema.Schema
	if success == nil {
		s = &jsonschema.Schema{}
	} else {
		s = success.CloneSchemas()
	}
	required := slices.Clone(s.Required)
	variants := s.OneOf

	s.Type, s.Types = "object", nil
	s.Required = nil
	s.AllOf, s.AnyOf, s.OneOf, s.Not = nil, nil, nil, nil
	s.If, s.Then, s.Else = nil, nil, nil
	s.DependentRequired, s.DependentSchemas = nil, nil
	s.DependencySchemas, s.DependencyStrings = nil, nil

	props := make(map[string]*jsonschema.Schema, len(s.Properties)+1)
	for k, v := range s.Properties {
		props[k] = v
	}
	props[ErrorProperty] = errorSchema(reasons)
	s.Properties = props
	if len(s.PropertyOrder) > 0 {
		s.PropertyOrder = append(slices.Clone(s.PropertyOrder), ErrorProperty)
	}

	successBranch := &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{ErrorProperty}}}
	if len(required) > 0 {
		successBranch.Required = required
	}
	// A union's variants are the shapes of success (see union.go): kept,
	// so that a client sees each.
	successBranch.OneOf = variants
	s.AnyOf = []*jsonschema.Schema{successBranch, {Required: []string{ErrorProperty}}}
	return s
}

// errorSchema describes structuredContent.error. Its objects stay open: a
// failure's data may carry more than the keys described here (issues, ids).
func errorSchema(reasons []Reason) *jsonschema.Schema {
	reason := &jsonschema.Schema{
		Type:        "string",
		Description: "Machine-readable reason for the failure.",
	}
	if len(reasons) > 0 {
		var b strings.Builder
		b.WriteString("Machine-readable reason for the failure. Declared reasons:")
		for _, r := range reasons {
			when := strings.TrimSpace(r.When)
			if !strings.HasSuffix(when, ".") {
				when += "."
			}
			b.WriteString(" `" + r.Reason + "`: " + when)
			reason.Examples = append(reason.Examples, r.Reason)
		}
		b.WriteString(" Other values can come from below the handler (services, the framework).")
		reason.Description = b.String()
	}
	return &jsonschema.Schema{
		Type:        "object",
		Description: "Present only when the call failed; the success fields are then absent.",
		Properties: map[string]*jsonschema.Schema{
			"code":    {Type: "integer", Description: "JSON-RPC error code."},
			"message": {Type: "string", Description: "Human-readable error message."},
			"data": {
				Type:        "object",
				Description: "Structured details of the failure.",
				Properties: map[string]*jsonschema.Schema{
					"reason": reason,
					"recovery": {
						Type:        "object",
						Description: "What the caller can do next.",
						Properties: map[string]*jsonschema.Schema{
							"hint": {Type: "string", Description: "The next step to try."},
						},
						Required: []string{"hint"},
					},
					"retryable": {Type: "boolean", Description: "Whether retrying the same call may succeed."},
				},
				PropertyOrder: []string{"reason", "recovery", "retryable"},
			},
		},
		Required:      []string{"code", "message"},
		PropertyOrder: []string{"code", "message", "data"},
	}
}
