package mcpcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"

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

// callTool runs one tools/call: decode and validate the input, run the
// handler with panic recovery, validate the output, render. Every failure,
// whatever its kind, becomes an error result, so the model always sees what
// went wrong; but for the two that MCP defines as protocol errors (see
// protocolError), which are JSON-RPC errors.
func (s *Server) callTool(ctx context.Context, rt *toolRuntime, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	x := newExchange(req.ProtocolVersion(), req.Params.GetProgressToken(), req.ClientCapabilities, req.Params.InputResponses)
	c, refused := s.begin(ctx, "tool", rt.name, rt.contract, request{
		session: req.Session, meta: req.Params.Meta, extra: req.Extra, input: len(req.Params.Arguments), version: req.ProtocolVersion(), x: x, scopes: rt.scopes})
	if refused != nil {
		f, _ := newFailure(refused)
		return f.toolResult(), nil
	}
	bind := func() string { return binding("tool", rt.name, tokenOf(req.Extra), req.Params.Arguments) }
	res, err := guard(func() (*mcp.CallToolResult, error) {
		if err := s.admit(c, bind, req.Params.RequestState); err != nil {
			return nil, err
		}
		return s.runTool(c, rt, req.Params.Arguments)
	})
	if questions, state := s.questions(c, bind, err); questions != nil {
		return &mcp.CallToolResult{InputRequests: questions, RequestState: state}, nil
	}
	size := 0
	if res != nil {
		size = len(res.StructuredContent.(json.RawMessage))
	}
	if f := s.end(c, err, size); f != nil {
		if protocolError(f.err) {
			return nil, f.rpcError()
		}
		return f.toolResult(), nil
	}
	return res, nil
}

// admit runs before the handler: it admits the call within its session's
// limit of calls in flight and the server's, checks the definition's Scopes
// against the caller's token, then verifies the requestState a client
// echoed and resumes the call's exchange from the round it carries. bind
// names the call (see binding); it is computed only when there is a state.
func (s *Server) admit(c *call, bind func() string, wire string) error {
	if ss := c.ctx.session; ss != nil && s.cfg.MaxCallsSession > 0 {
		if !s.inflight.enterSession(ss, s.cfg.MaxCallsSession) {
			return mcperr.RateLimited(fmt.Sprintf("Too many calls in flight on this session: at most %d run at once (MCP_MAX_CALLS_PER_SESSION). Wait for some to finish, then retry.",
				s.cfg.MaxCallsSession), mcperr.WithData(map[string]any{"limit": s.cfg.MaxCallsSession}), mistake(errSessionBusy))
		}
		c.sessionCounted = true
	}
	// The count ends when the call leaves s.inflight.
	if n := s.cfg.MaxCallsInFlight; n > 0 && !s.inflight.enterServer(c.token, n) {
		return mcperr.RateLimited(fmt.Sprintf("Too many calls in flight on this server: at most %d run at once (MCP_MAX_CALLS_IN_FLIGHT). Wait for some of yours to finish, then retry.",
			n), mcperr.WithData(map[string]any{"limit": n}), mistake(errServerBusy))
	}
	if err := c.ctx.RequireScopes(c.scopes...); err != nil {
		return err
	}
	if wire == "" {
		return nil
	}
	r, err := s.openState(bind(), wire)
	if err != nil {
		return badState()
	}
	if c.ctx.x != nil {
		c.ctx.x.resume(r)
	}
	return nil
}

// questions returns, when a call ended because the client must answer
// first (see ErrInputRequired), the questions to send and the signed
// requestState; the call is then observed as a success of its round.
func (s *Server) questions(c *call, bind func() string, err error) (mcp.InputRequestMap, string) {
	questions, next := c.ctx.x.inputRequired(err)
	if questions == nil {
		return nil, ""
	}
	s.end(c, nil, 0)
	return questions, s.signState(bind(), next)
}

// runTool produces a call's result, or whatever it failed with. Panics are
// recovered by the caller.
func (s *Server) runTool(c *call, rt *toolRuntime, raw json.RawMessage) (*mcp.CallToolResult, error) {
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

// A panicError carries a recovered panic to the place where the call's
// failure is observed. Its value and stack are logged, never sent.
type panicError struct {
	value any
	stack []byte
}

// Error describes the panic for logs.
func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// guard runs f, turning a panic into a *panicError, so that a handler's panic
// never takes the server down.
func guard[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{value: r, stack: debug.Stack()}
		}
	}()
	return f()
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
