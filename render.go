package mcpcore

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A failure is what a failed call sends: the error's message and data as
// they go on the wire, scrubbed and encoded once (see newFailure), so that
// rendering cannot fail and both surfaces send the same text.
type failure struct {
	err     *mcperr.Error
	message string          // the message sent
	hint    string          // data.recovery.hint as sent, or ""
	data    json.RawMessage // nil when err has no data
	object  json.RawMessage // the JSON-RPC error object, {code, message, data?}
}

// newFailure builds what the failure of e sends. Whoever built e (the
// framework, a handler through Fail, a service through a factory), its
// message and every string of its data are scrubbed of secrets on their way
// out (internal/redact): an upstream URL in a service's own message keeps
// its path but not its api_key. Data keys stay as their author set them;
// the value under a key that names a secret becomes [REDACTED]. A message
// that holds the value of a panic (see [mcperr.HasPanicText]) is withheld
// whole. dropped lists the data JSON could not carry (see encodeData), for
// the log.
func newFailure(e *mcperr.Error) (f *failure, dropped []string) {
	f = &failure{err: e, message: wireMessage(e.Message())}
	f.data, f.hint, dropped = wireData(e.Data())
	f.object, _ = json.Marshal(wireObject{int64(e.Code()), f.message, f.data})
	return f, dropped
}

// wireMessage is an error's message as the client gets it.
func wireMessage(msg string) string {
	if mcperr.HasPanicText(msg) {
		return mcperr.WithheldMessage
	}
	return redact.String(msg)
}

// wireData encodes data for the wire, scrubbed (see scrubJSON), and
// returns its recovery hint as sent.
func wireData(data map[string]any) (encoded json.RawMessage, hint string, dropped []string) {
	raw, dropped := encodeData(data)
	if raw == nil {
		return nil, "", dropped
	}
	encoded, tree := scrubJSON(raw)
	if m, ok := tree.(map[string]any); ok {
		if rec, ok := m["recovery"].(map[string]any); ok {
			hint, _ = rec["hint"].(string)
		}
	}
	return encoded, hint, dropped
}

// scrubJSON returns the JSON value raw with every string scrubbed and the
// value under every key that names a secret redacted (redact.JSON), and
// the scrubbed tree; nil when raw is not JSON. Going through JSON, a string
// held anywhere (in a struct, a typed map) is seen; numbers stay exact.
func scrubJSON(raw json.RawMessage) (json.RawMessage, any) {
	tree, err := redact.JSON(raw)
	if err != nil {
		return nil, nil
	}
	encoded, err := json.Marshal(tree)
	if err != nil {
		return nil, nil // unreachable: a tree of JSON values
	}
	return encoded, tree
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
	text := contract.Text(f.message, f.hint)
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
	return &jsonrpc.Error{Code: int64(f.err.Code()), Message: f.message, Data: f.data}
}
