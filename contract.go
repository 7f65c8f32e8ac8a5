package mcpcore

import "github.com/seed417024ea/mcpcore/internal/schema"

// ContractMetaKey is the key under which a tool's error contract is published
// in its _meta in tools/list: a list of {reason, code, when, recovery,
// retryable?} objects in declaration order, so that clients can read a tool's
// failure modes without parsing schema prose.
const ContractMetaKey = "mcpcore/errors"

// publishedFailure is the wire form of a contract entry. Severity and
// ThrownBy are operator and linter concerns and stay private.
type publishedFailure struct {
	Reason    string `json:"reason"`
	Code      int32  `json:"code"`
	When      string `json:"when"`
	Recovery  string `json:"recovery"`
	Retryable *bool  `json:"retryable,omitempty"`
}

func publishContract(contract []Failure) []publishedFailure {
	out := make([]publishedFailure, len(contract))
	for i, f := range contract {
		out[i] = publishedFailure{Reason: f.Reason, Code: int32(f.Code), When: f.When, Recovery: f.Recovery}
		if retryable, ok := f.Retryable.flag(); ok {
			out[i].Retryable = &retryable
		}
	}
	return out
}

// schemaReasons is the part of the contract the advertised output schema
// describes.
func schemaReasons(contract []Failure) []schema.Reason {
	out := make([]schema.Reason, len(contract))
	for i, f := range contract {
		out[i] = schema.Reason{Reason: f.Reason, When: f.When}
	}
	return out
}
