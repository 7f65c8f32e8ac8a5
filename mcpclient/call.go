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
//
// # Tasks
//
// A server that speaks the tasks extension (io.modelcontextprotocol/tasks)
// may answer a client that declared it (see [NewClient]) with a task in
// place of the result; through a connection wrapped by [Transport], Call
// then waits for the task's end, polling tasks/get at the interval the
// server advises (pollIntervalMs, within [MinPollInterval] and
// [MaxPollInterval]; [DefaultPollInterval] without advice), and returns
// what the call would have returned had the server answered at once:
//
//   - completed: its result, as above (a result with isError true is the
//     same [*mcperr.Error] as when answered at once);
//   - failed: its JSON-RPC error, as [FromRPC] gives an error answer, with
//     its data, so that a failure the server marked retryable (data.retryable
//     true, as a server's own end of a task: ServiceUnavailable) is retried
//     by [RetryByContract] and [mcperr.Retry];
//   - cancelled (by the server, or another client): a RequestCancelled;
//   - input_required: the session's own handlers (elicitation, sampling,
//     roots) answer the questions, as the SDK answers those of a
//     multi-round-trip result, and tasks/update gives the server the
//     answers; each question is answered once. When the session cannot
//     answer (no handler, a handler's error, or its multi-round-trip
//     handling disabled), Call cancels the task and returns an
//     InvalidRequest saying why.
//
// When ctx ends while Call waits, Call sends tasks/cancel, detached from
// ctx and bounded to 2 seconds, and returns ctx's error as for a call
// answered at once: RequestCancelled, or Timeout for a deadline. A poll
// that fails with an error the server marked retryable is tried again at
// the next interval, up to 5 in a row; any other failure of a poll is
// returned, the task cancelled.
func Call[Out any](ctx context.Context, cs *mcp.ClientSession, name string, args any) (Out, error) {
	var out Out
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return out, FromRPC(err)
	}
	if res, err = AwaitTask(ctx, cs, name, res); err != nil {
		return out, err
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
