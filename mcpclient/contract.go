package mcpclient

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Contract returns the error contract tool publishes in its
// _meta[[contract.MetaKey]], as tools/list lists it, in declaration order;
// nil, nil when tool is nil or declares nothing (no key, null, or an empty
// list).
//
// Each entry must be an object with a non-empty reason, an integer code, and
// when and recovery strings; retryable, when present, is a boolean (true is
// [contract.Retryable], false [contract.NotRetryable]; absent or null is
// [contract.RetryUnspecified]). Unknown keys are ignored. A contract that is
// not a list of such entries, or that names a reason twice, is an error, a
// SerializationError: a client cannot trust half of a contract. Severity and
// ThrownBy are not published, so they are always zero. The entries are read
// as [contract.ParseMeta] reads them; a [contract.Failure] is an
// mcpcore.Failure.
func Contract(tool *mcp.Tool) ([]contract.Failure, error) {
	if tool == nil {
		return nil, nil
	}
	c, err := contract.ParseMeta(tool.Meta)
	if err != nil {
		return nil, mcperr.SerializationError(fmt.Sprintf("Tool %s: _meta[%q]: %v", tool.Name, contract.MetaKey, err))
	}
	return c, nil
}

// Contracts lists the tools of the session's server and returns the contract
// of each tool that declares one, by tool name, as [Contract] reads it. The
// error of the listing is an [*mcperr.Error] as [FromRPC] gives it; that of
// a malformed contract is [Contract]'s.
func Contracts(ctx context.Context, cs *mcp.ClientSession) (map[string][]contract.Failure, error) {
	out := make(map[string][]contract.Failure)
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, FromRPC(err)
		}
		c, err := Contract(tool)
		if err != nil {
			return nil, err
		}
		if c != nil {
			out[tool.Name] = c
		}
	}
	return out, nil
}
