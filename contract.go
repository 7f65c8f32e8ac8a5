package mcpcore

import (
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/schema"
)

// ContractMetaKey is the key under which a tool's error contract is published
// in its _meta in tools/list: a list of {reason, code, when, recovery,
// retryable?} objects in declaration order, so that clients can read a tool's
// failure modes without parsing schema prose. It is [contract.MetaKey]; the
// objects are [contract.Entry] values.
const ContractMetaKey = contract.MetaKey

// schemaReasons is the part of the contract the advertised output schema
// describes.
func schemaReasons(contract []Failure) []schema.Reason {
	out := make([]schema.Reason, len(contract))
	for i, f := range contract {
		out[i] = schema.Reason{Reason: f.Reason, When: f.When}
	}
	return out
}
