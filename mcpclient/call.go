package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Call calls the tool name with args (any value that encodes as a JSON
// object; nil sends {}) and decodes its structured content into an Out, so
// that a tool's typed output reads as it was written on the server.
//
// Every error Call returns is an [*mcperr.Error], which errors.As,
// [mcperr.CodeOf] and [RetryByContract] read as they would on the server:
//
//   - a failed call (isError true): the server's error, as [ErrorOf] gives it;
//   - an error of the session (a JSON-RPC error answer, a cancelled context,
//     a closed connection): as [FromRPC] gives it;
//   - a successful result without structured content, or whose structured
//     content does not decode into an Out: a SerializationError, with the
//     decoding error as its cause. Unknown fields are ignored, so a server
//     may add output fields without breaking its clients;
//   - a result that still asks the client for input (possible only when the
//     session's automatic multi-round-trip handling is disabled): an
//     InvalidRequest, since Call cannot answer the server's questions.
//
// Numbers in the structured content pass through float64 on their way into
// Out, as the SDK decodes them: integers beyond 2⁵³ lose precision.
func Call[Out any](ctx context.Context, cs *mcp.ClientSession, name string, args any) (Out, error) {
	var out Out
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return out, FromRPC(err)
	}
	if e := ErrorOf(res); e != nil {
		return out, e
	}
	if res.NeedsInput() {
		return out, mcperr.InvalidRequest(fmt.Sprintf(
			"Tool %s asks the client for input, which Call cannot give; keep the session's multi-round-trip handling enabled.", name))
	}
	if err := decode(res.StructuredContent, &out); err != nil {
		return out, mcperr.SerializationError(fmt.Sprintf("Tool %s: decoding its result into %v failed: %v", name, reflect.TypeFor[Out](), err),
			mcperr.WithCause(err))
	}
	return out, nil
}

// errNoStructuredContent is the cause of Call's failure on a result that has
// nothing to decode.
var errNoStructuredContent = errors.New("the result has no structured content")

// decode decodes structured content, as the SDK left it (a decoded value, or
// a json.RawMessage), into out.
func decode(sc, out any) error {
	if sc == nil {
		return errNoStructuredContent
	}
	raw, ok := sc.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(sc); err != nil {
			return err
		}
	}
	return json.Unmarshal(raw, out)
}

// ReadResource reads the resource at uri; its error, if any, is an
// [*mcperr.Error] as [FromRPC] gives it: a resource failure of an mcpcore
// server keeps the code, message and data its handler raised.
func ReadResource(ctx context.Context, cs *mcp.ClientSession, uri string) (*mcp.ReadResourceResult, error) {
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, FromRPC(err)
	}
	return res, nil
}

// GetPrompt gets the prompt name with args; its error, if any, is an
// [*mcperr.Error] as [FromRPC] gives it, like [ReadResource]'s.
func GetPrompt(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, FromRPC(err)
	}
	return res, nil
}
