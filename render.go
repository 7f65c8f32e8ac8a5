package mcpcore

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A failure is what a failed call sends: the error, with its data already
// encoded for the wire (see encodeData), so that rendering cannot fail.
type failure struct {
	err    *mcperr.Error
	data   json.RawMessage // nil when err has no data
	object json.RawMessage // the JSON-RPC error object, {code, message, data?}
}

// newFailure builds the failure of e, whose data is data, encoded.
func newFailure(e *mcperr.Error, data json.RawMessage) *failure {
	object, _ := json.Marshal(wireObject{int64(e.Code()), e.Message(), data})
	return &failure{err: e, data: data, object: object}
}

// wireObject is the JSON-RPC error object, {"code":…,"message":…,"data":…}.
type wireObject struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// toolResult renders a tool failure on both client surfaces, which must
// agree: content[0].text for models and clients that read text, and
// structuredContent.error for programs. isError tells both it failed.
//
//	content[0].text:           Error: <message>[\n\nRecovery: <hint>]
//	structuredContent.error:   {"code":…,"message":…,"data":…}
//
// The Recovery line appears only when data.recovery.hint is a non-empty
// string; data appears only when it was set.
func (f *failure) toolResult() *mcp.CallToolResult {
	text := "Error: " + f.err.Message()
	if hint := f.err.RecoveryHint(); hint != "" {
		text += "\n\nRecovery: " + hint
	}
	envelope := append(append([]byte(`{"error":`), f.object...), '}')
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(envelope),
	}
}

// rpcError renders a resource or prompt failure as the JSON-RPC error the
// SDK sends as it is: the same code, message and data as the failure. (The
// SDK keeps only the code of a wrapped *jsonrpc.Error, so it must be
// returned bare.)
func (f *failure) rpcError() error {
	return &jsonrpc.Error{Code: int64(f.err.Code()), Message: f.err.Message(), Data: f.data}
}
