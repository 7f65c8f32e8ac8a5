package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// inputMetaKey marks, in its params._meta, the tools/call by which [Call]
// has the session answer a task's questions; a connection wrapped by
// [Transport] answers it and never sends it.
const inputMetaKey = "mcpcore/taskInput"

// The questions of a task are those of the multi-round-trip protocol
// (SEP-2322), which the SDK's client answers with the session's own
// handlers (elicitation, sampling, roots) when a tools/call result asks
// them, and which it has no other way to run. So [Call] asks them through a
// tools/call that the wrapped connection answers itself: first with an
// input_required result holding the questions, which the SDK answers by
// calling again with inputResponses; then with a result whose structured
// content is those responses, as the SDK encoded them.

// answerInput has the session's handlers answer questions (inputRequests of
// a task, by key) and returns their answers, as tasks/update takes them.
// tool names the tool for the error.
func answerInput(ctx context.Context, cs *mcp.ClientSession, tool string, questions map[string]json.RawMessage) (json.RawMessage, error) {
	raw, err := json.Marshal(questions)
	if err != nil {
		return nil, mcperr.SerializationError(fmt.Sprintf("Tool %s: encoding its task's questions failed: %v", tool, err), mcperr.WithCause(err))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Meta:      mcp.Meta{inputMetaKey: true},
		Name:      inputMetaKey,
		Arguments: json.RawMessage(raw),
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, FromRPC(err)
		}
		return nil, mcperr.InvalidRequest(fmt.Sprintf(
			"Tool %s's task asks the client for input, which this client did not give: %v", tool, err), mcperr.WithCause(err))
	}
	if res.NeedsInput() {
		return nil, mcperr.InvalidRequest(fmt.Sprintf(
			"Tool %s's task asks the client for input, which Call cannot give; keep the session's multi-round-trip handling enabled.", tool))
	}
	answers, err := json.Marshal(res.StructuredContent)
	if err != nil || res.StructuredContent == nil {
		return nil, mcperr.InvalidRequest(fmt.Sprintf(
			"Tool %s's task asks the client for input; the session answered through a connection not wrapped by mcpclient.Transport.", tool))
	}
	return answers, nil
}

// answerInputCall returns the answer to req when it is a tools/call of
// answerInput's, as the comment above says; ok is false for any other.
func answerInputCall(req *jsonrpc.Request) (answer *jsonrpc.Response, ok bool) {
	params := req.Params
	if len(params) == 0 || params[0] != '{' || rpcguard.Member(rpcguard.Member(params, "_meta"), inputMetaKey) == nil {
		return nil, false
	}
	var result any
	if responses := rpcguard.Member(params, "inputResponses"); responses != nil {
		result = struct {
			Content           []struct{}      `json:"content"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		}{[]struct{}{}, responses}
	} else {
		questions := rpcguard.Member(params, "arguments")
		if questions == nil {
			questions = json.RawMessage("{}")
		}
		result = struct {
			ResultType    string          `json:"resultType"`
			InputRequests json.RawMessage `json:"inputRequests"`
		}{"input_required", questions}
	}
	b, err := json.Marshal(result)
	if err != nil {
		return &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}}, true
	}
	return &jsonrpc.Response{ID: req.ID, Result: b}, true
}
