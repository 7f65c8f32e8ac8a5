package mcpcore

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// errorResult renders a tool failure on both client surfaces, which must
// agree: content[0].text for models and clients that read text, and
// structuredContent.error for programs. isError tells both it failed.
//
//	content[0].text:           Error: <message>[\n\nRecovery: <hint>]
//	structuredContent.error:   {"code":…,"message":…,"data":…}
//
// The Recovery line appears only when data.recovery.hint is a non-empty
// string; data appears only when it was set.
func errorResult(e *mcperr.Error) *mcp.CallToolResult {
	text := "Error: " + e.Message()
	if hint := e.RecoveryHint(); hint != "" {
		text += "\n\nRecovery: " + hint
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: errorEnvelope{Error: e},
	}
}

// errorEnvelope is structuredContent of a failed call. *mcperr.Error
// marshals itself as the JSON-RPC error object.
type errorEnvelope struct {
	Error *mcperr.Error `json:"error"`
}

// wireError renders a resource or prompt failure as the JSON-RPC error the
// SDK sends as it is: the same code, message and data as e. (The SDK keeps
// only the code of a wrapped *jsonrpc.Error, so it must be returned bare.)
func wireError(e *mcperr.Error) error {
	w := &jsonrpc.Error{Code: int64(e.Code()), Message: e.Message()}
	if e.Data() != nil {
		data, err := json.Marshal(e.Data())
		if err != nil {
			// Data the client cannot receive is dropped rather than
			// failing the failure.
			return w
		}
		w.Data = data
	}
	return w
}
