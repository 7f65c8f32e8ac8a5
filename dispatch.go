package mcpcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// addTool registers a tool with the SDK behind the one dispatch every call
// goes through.
func (s *Server) addTool(def *mcp.Tool, rt *toolRuntime) {
	s.mcp.AddTool(def, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return s.callTool(ctx, rt, req)
	})
	s.tools++
}

// callTool runs one tools/call through the pipeline. Every failure,
// whatever its kind, becomes an error result, so the model always sees what
// went wrong; but for the two that MCP defines as protocol errors (see
// protocolError), which are JSON-RPC errors.
func (s *Server) callTool(ctx context.Context, rt *toolRuntime, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return serve(s, ctx, &callHead{
		kind: "tool", name: rt.name, contract: rt.contract,
		req: request{session: req.Session, meta: req.Params.Meta, extra: req.Extra, input: len(req.Params.Arguments), version: req.ProtocolVersion(),
			x: newExchange(req.ProtocolVersion(), req.Params.GetProgressToken(), req.ClientCapabilities, req.Params.InputResponses), scopes: rt.scopes},
		bind:  func() string { return binding("tool", rt.name, tokenOf(req.Extra), req.Params.Arguments) },
		state: req.Params.RequestState,
	}, toolCall{s, rt, req.Params.Arguments})
}

// toolCall is a tools/call in the pipeline.
type toolCall struct {
	s    *Server
	rt   *toolRuntime
	args json.RawMessage
}

func (t toolCall) run(c *callState) (*mcp.CallToolResult, error) { return t.s.runTool(c, t.rt, t.args) }

func (toolCall) size(res *mcp.CallToolResult) int {
	return len(res.StructuredContent.(json.RawMessage))
}

func (toolCall) ask(questions mcp.InputRequestMap, state string) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: questions, RequestState: state}
}

func (toolCall) fail(f *failure) (*mcp.CallToolResult, error) {
	if protocolError(f.err) {
		return nil, f.rpcError()
	}
	return f.toolResult(), nil
}

// runTool produces a call's result, or whatever it failed with. Panics are
// recovered by the caller.
func (s *Server) runTool(c *callState, rt *toolRuntime, raw json.RawMessage) (*mcp.CallToolResult, error) {
	out, err := rt.run(c.ctx, raw)
	if err != nil {
		return nil, err
	}
	// An answer whose structured part alone is over the bound is refused
	// before its text is rendered: that would double what it holds.
	if err := s.tooLarge("result of tool "+rt.name, len(out.structured)); err != nil {
		return nil, err
	}
	if rt.output != nil {
		if res := rt.output.Check(out.structured); !res.Valid() {
			return nil, mcperr.ValidationError("Tool output failed validation: "+res.Summary(), mcperr.WithData(issuesData(res)))
		}
	}
	content, err := out.format()
	if err != nil {
		// A formatter's failure is reported as one of formatting: its own
		// code and data are not the tool's.
		return nil, errors.New("Output formatting failed: " + err.Error())
	}
	if err := s.tooLarge("result of tool "+rt.name, contentBytes(content)+len(out.structured)); err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: out.structured}, nil
}

// decodeArgs validates raw arguments against v, filling in defaults, and
// decodes them into a T. Schema violations are listed in data.issues (see
// issuesData);
// arguments that pass the schema but still do not fit T (a number out of
// range, say) are a ValidationError too.
func decodeArgs[T any](v *schema.Validator, raw json.RawMessage) (T, error) {
	var t T
	args, res, err := v.CheckJSON(raw)
	if err != nil {
		return t, mcperr.ValidationError("Arguments are not valid JSON: "+err.Error(), mistake(err))
	}
	if !res.Valid() {
		return t, mcperr.ValidationError(res.Summary(), mcperr.WithData(issuesData(res)), mistake(nil))
	}
	if err := json.Unmarshal(args, &t); err != nil {
		return t, mcperr.ValidationError("Invalid arguments: "+err.Error(), mistake(err))
	}
	// What the schema cannot say, the input type's Validate method checks.
	if err := validateInput(&t); err != nil {
		return t, err
	}
	return t, nil
}

// issuesData is the data of a validation failure: the issues (at most
// [schema.MaxIssues], each bounded in length), and when the list was cut,
// issuesOmitted, the number of issues found but not listed. When validation
// stopped at the cap, validationStopped is true and issuesOmitted is a lower
// bound: the work for any input stays bounded.
func issuesData(res schema.Result) map[string]any {
	data := map[string]any{"issues": res.Issues}
	if res.Omitted > 0 || res.Stopped {
		data["issuesOmitted"] = res.Omitted
	}
	if res.Stopped {
		data["validationStopped"] = true
	}
	return data
}

// decodeStrings is decodeArgs for string-valued arguments: a prompt's
// arguments, a URI template's variables.
func decodeStrings[T any](v *schema.Validator, args map[string]string) (T, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		var t T
		return t, err
	}
	return decodeArgs[T](v, raw)
}

// failureOf turns whatever a call failed with into the error sent to the
// client:
//   - a panic is an InternalError with a generic message;
//   - so is a nil pointer returned as a non-nil error (a typed nil, such as
//     a nil *mcperr.Error returned as error): it is a handler bug;
//   - so is an error whose tree goes on past the bounds of a walk (an
//     Unwrap that returns itself, say: errors.As would never return), and
//     one whose message holds the value of a panic (fmt.Errorf wrapping an
//     error whose Error method panicked): the panic's value stays in the log;
//   - a failure after the request was cancelled (by the client, or by the
//     server giving up on it at shutdown) is RequestCancelled, whatever the
//     handler returned: a service that wraps ctx.Err() in an *mcperr.Error
//     must not turn a cancellation into an error-level incident;
//   - an *mcperr.Error in the chain is sent as it is;
//   - a failure after the request's deadline passed is Timeout;
//   - anything else is classified, and carries code and message only.
//
// Every walk of err's tree is bounded (internal/errchain).
func failureOf(ctx context.Context, kind, name string, err error) *mcperr.Error {
	if isNil(err) {
		return internalError(kind, name,
			mcperr.WithCause(fmt.Errorf("the %s handler returned a nil %T as a non-nil error", kind, err)))
	}
	if _, ok := err.(*panicError); ok {
		return internalError(kind, name, mcperr.WithCause(err))
	}
	if errchain.Cut(err) {
		return internalError(kind, name, mcperr.WithCause(errUnwalkable{err}))
	}
	if ctx.Err() == context.Canceled && mcperr.CodeOf(err) != mcperr.CodeRequestCancelled {
		return mcperr.RequestCancelled("The request was cancelled.", mcperr.WithCause(err))
	}
	if e, ok := errchain.As[*mcperr.Error](err); ok && e != nil {
		return e
	}
	if ctx.Err() == context.DeadlineExceeded && mcperr.CodeOf(err) != mcperr.CodeTimeout {
		return mcperr.Timeout("The request timed out.", mcperr.WithCause(err))
	}
	e := mcperr.From(err)
	if e.Message() == mcperr.WithheldMessage {
		return internalError(kind, name, mcperr.WithCause(err))
	}
	return e
}

// errUnwalkable is the cause of the InternalError of an error whose tree
// goes on past the bounds of a walk. Its text names the error's type only:
// its Error method, and any walk below it, are not to be trusted.
type errUnwalkable struct{ err error }

func (e errUnwalkable) Error() string {
	return fmt.Sprintf("the handler returned a %T whose error tree goes on past %d errors deep or %d in all (a cycle?)",
		e.err, errchain.MaxDepth, errchain.MaxNodes)
}

// isNil reports whether err is a nil pointer (or map, slice, func, chan)
// inside a non-nil error interface: the typed nil that Go lets a function
// return by mistake, whose methods may well panic.
func isNil(err error) bool {
	v := reflect.ValueOf(err)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

// A clientMistake is the cause of a failure that is the client's doing:
// arguments, prompt arguments or URI variables that do not fit their
// schema, an answer that does not fit its form, a token without the scopes
// a definition needs, a session over its limit of calls. It is logged at notice,
// below the server's own incidents; a handler's own ValidationError, and
// output that fails validation (a server bug), keep their level.
type clientMistake struct{ err error }

func (m *clientMistake) Error() string {
	if m.err == nil {
		return "the client's input does not fit its schema"
	}
	return m.err.Error()
}

func (m *clientMistake) Unwrap() error { return m.err }

func mistake(err error) mcperr.Option { return mcperr.WithCause(&clientMistake{err}) }

// isMistake reports whether e is a client's mistake, looking at its cause
// itself (a handler's error may have methods that panic).
func isMistake(e *mcperr.Error) bool {
	_, ok := e.Cause().(*clientMistake)
	return ok || e.Cause() == errBadState
}

// errSessionBusy is the cause of a call refused beyond its session's limit.
var errSessionBusy = errors.New("the session has too many calls in flight")
