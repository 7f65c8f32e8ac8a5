package mcpcore

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The call pipeline: every tool call, resource read and prompt request goes
// through serve, in the same steps:
//
//	begin    refuse new work at shutdown; start the span; build the Context
//	admit    the limits of calls in flight, the Scopes, the requestState
//	run      the definition's own work, under the panic guard: decode and
//	         validate, the interceptors and the handler, encode and bound
//	ask      a round that ends with questions for the client (ErrInputRequired)
//	end      observe the outcome once: classify, render, log, record
//
// What differs between the kinds of definition (what run does, how a result
// is sized, how a failure is answered) is a [callKind]'s. The failure path
// (end, observe, failureOf) and the rendering of a failure (render.go) are
// the same for every kind.

// A callKind is what one kind of definition gives the pipeline for one call.
type callKind[R any] interface {
	// run does the definition's work: decode, the handler, render.
	run(c *callState) (R, error)
	// size is the bytes of a successful result, for the record.
	size(res R) int
	// ask is the result of a round that ends with questions.
	ask(questions mcp.InputRequestMap, state string) R
	// fail answers a failure: an error result for a tool, a JSON-RPC
	// error for a resource or a prompt.
	fail(f *failure) (R, error)
}

// A callHead is what the pipeline knows of a call before it runs: the
// definition, the request, and what binds the call's requestState to it.
type callHead struct {
	kind, name string
	contract   []Failure
	req        request
	// bind names the call (see binding), computed only when there is a
	// state; state is the requestState the client echoed.
	bind  func() string
	state string
}

// serve runs one call of a definition through the pipeline.
func serve[R any, K callKind[R]](s *Server, ctx context.Context, h *callHead, k K) (R, error) {
	var zero R
	c, refused := s.begin(ctx, h.kind, h.name, h.contract, h.req)
	if refused != nil {
		f, _ := newFailure(refused)
		return k.fail(f)
	}
	res, err := guard(func() (R, error) {
		if err := s.admit(c, h.bind, h.state); err != nil {
			return zero, err
		}
		return k.run(c)
	})
	if questions, state := s.questions(c, h.bind, err); questions != nil {
		return k.ask(questions, state), nil
	}
	size := 0
	if err == nil {
		size = k.size(res)
	}
	if f := s.end(c, err, size); f != nil {
		return k.fail(f)
	}
	return res, nil
}

// admit runs before the handler: it admits the call within its session's
// limit of calls in flight and the server's, checks the definition's Scopes
// against the caller's token, then verifies the requestState a client
// echoed and resumes the call's exchange from the round it carries. bind
// names the call (see binding); it is computed only when there is a state.
func (s *Server) admit(c *callState, bind func() string, wire string) error {
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
func (s *Server) questions(c *callState, bind func() string, err error) (mcp.InputRequestMap, string) {
	questions, next := c.ctx.x.inputRequired(err)
	if questions == nil {
		return nil, ""
	}
	s.end(c, nil, 0)
	return questions, s.signState(bind(), next)
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
