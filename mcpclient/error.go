package mcpclient

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// noMessage is the message of a failed tool call that said nothing at all.
const noMessage = "The tool reported an error without a message."

// ErrorOf returns the error of a failed tool call as the server raised it,
// or nil when res is nil or did not fail (isError false): a successful
// result whose structured content happens to have an "error" key is still
// a success.
//
// The error is read from structuredContent.error, the JSON-RPC error object
// {code, message, data?} that mcpcore sends: the code, the message and the
// data are those of the server's error, so data.reason, data.retryable and
// [mcperr.Error.RecoveryHint] read as they did on the server. Data values
// are decoded as the package documentation says (numbers are float64); data
// that is not a JSON object is dropped, and a top-level "auth" key is
// removed, as [mcperr.New] does. The error has no cause.
//
// A result without a well-formed structuredContent.error (a server not
// built on mcpcore, or a client that dropped the structured content) is
// read from its first text content instead: the message is the text
// without the "Error: " prefix, a trailing "\n\nRecovery: <hint>" becomes
// data.recovery.hint, and the code is [mcperr.CodeUnknownError], because the
// text says that the call failed but not how. Such an error has no reason
// and no retryable flag, so [RetryByContract] does not retry it.
func ErrorOf(res *mcp.CallToolResult) *mcperr.Error {
	if res == nil || !res.IsError {
		return nil
	}
	if e := structuredError(res.StructuredContent); e != nil {
		return e
	}
	return textError(res.Content)
}

// structuredError reads structuredContent.error, or returns nil when it is
// missing or not a JSON-RPC error object. The structured content is a
// json.RawMessage on the server side of a session and a decoded value
// (map[string]any) on the client side; both are read through JSON.
func structuredError(sc any) *mcperr.Error {
	if sc == nil {
		return nil
	}
	raw, ok := sc.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(sc); err != nil {
			return nil
		}
	}
	var envelope struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &envelope) != nil {
		return nil
	}
	var obj struct {
		Code    json.RawMessage `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if len(envelope.Error) == 0 || envelope.Error[0] != '{' || json.Unmarshal(envelope.Error, &obj) != nil {
		return nil
	}
	code, ok := contract.ParseCode(obj.Code)
	if !ok || obj.Message == nil {
		return nil
	}
	return mcperr.New(code, *obj.Message, mcperr.WithData(decodeData(obj.Data)))
}

// decodeData decodes the data of a JSON-RPC error object: a map for a JSON
// object, nil for anything else (absent, null, an array, a string, …), which
// an [*mcperr.Error] has no place for.
func decodeData(raw json.RawMessage) map[string]any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var data map[string]any
	if json.Unmarshal(raw, &data) != nil {
		return nil
	}
	return data
}

// textError reads a tool failure from the first text content, as ErrorOf
// documents.
func textError(content []mcp.Content) *mcperr.Error {
	text := ""
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			text = t.Text
			break
		}
	}
	message, hint := contract.ParseText(text)
	if message == "" {
		message = noMessage
	}
	return mcperr.New(mcperr.CodeUnknownError, message, mcperr.WithRecovery(strings.TrimSpace(hint)))
}
