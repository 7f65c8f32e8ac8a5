package mcpcore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/reqlog"
	"github.com/seed417024ea/mcpcore/internal/telemetry"
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
	fail(f *wireError) (R, error)
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
		f, _ := newWireError(refused)
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
// against the caller's token, verifies the requestState a client echoed,
// counts the round against the definition's RateLimit, and resumes the
// call's exchange from the round the state carries. bind
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
		return s.checkRateLimit(c)
	}
	r, err := s.openState(bind(), wire)
	if err != nil {
		return badState()
	}
	// Every round runs the handler, so every round counts: a state stays
	// valid for its hour, and a round replayed with it must not run the
	// handler past the quota.
	if err := s.checkRateLimit(c); err != nil {
		return err
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

// A callState is one tool call, resource read or prompt request, from the moment
// the dispatch accepts it until its outcome is observed.
type callState struct {
	kind     string
	name     string
	contract []Failure
	scopes   []string // the definition's, checked before the handler runs
	limit    RateLimit
	start    time.Time
	ctx      *Context
	// cancel ends the call's context; token is its place in s.inflight;
	// sessionCounted, whether its session's count holds it.
	cancel         context.CancelCauseFunc
	token          uint64
	stopHangUp     func() bool // nil unless the call came over HTTP
	sessionCounted bool
	released       bool
	span           *telemetry.Call // nil when nothing is recorded
	// inputBytes is the size of what the client sent: a tool's arguments,
	// a resource's URI, a prompt's arguments.
	inputBytes int
	// messages is the number of messages a prompt generated.
	messages int
}

// A request is what begin needs of the SDK's request of a call.
type request struct {
	session *mcp.ServerSession
	meta    map[string]any // params._meta, with the client's trace context
	extra   *mcp.RequestExtra
	uri     string // a resource's
	tmpl    string // a resource's URI template
	input   int    // the size of what the client sent
	version string // the protocol version the session negotiated
	x       *exchange
	scopes  []string // the definition's Scopes
	limit   RateLimit
}

// begin admits a call: it refuses new work while the server shuts down,
// starts its span, and builds the handler's Context, cancelled when the
// client cancels or the server stops waiting for in-flight calls.
func (s *Server) begin(ctx context.Context, kind, name string, contract []Failure, req request) (*callState, *mcperr.Error) {
	// The SDK does not hand the JSON-RPC id to handlers: jsonrpc.request.id
	// stays unset rather than carry another id.
	info := telemetry.CallInfo{Kind: kind, Name: name, URI: req.uri, Template: req.tmpl,
		Transport: s.transport, ProtocolVersion: req.version, Meta: req.meta, InputBytes: req.input}
	if req.session != nil {
		info.SessionID = req.session.ID()
	}
	if req.extra != nil {
		info.Header = req.extra.Header
	}
	ctx, cancel := context.WithCancelCause(ctx)
	token, ok := s.inflight.enter(cancel)
	if !ok {
		cancel(nil)
		return nil, mcperr.ServiceUnavailable("The server is shutting down; retry the request on a new connection.")
	}
	ctx, span := s.telemetry.Start(ctx, info)
	var stopHangUp func() bool
	if req.extra != nil {
		if post := s.endpoints.RequestContext(req.extra.Header); post != nil {
			stopHangUp = context.AfterFunc(post, func() { cancel(errHungUp) })
		}
	}
	cc := &Context{
		kind:       kind,
		name:       name,
		contract:   contract,
		base:       s.logger,
		session:    req.session,
		token:      tokenOf(req.extra),
		clientLogs: s.wantsLogs(req.session, req.meta),
		serverName: s.info.Name,
		uri:        req.uri,
		x:          req.x,
		srv:        s,
	}
	cc.ctx = reqlog.WithFunc(ctx, cc.reqLog)
	return &callState{
		kind:       kind,
		name:       name,
		contract:   contract,
		scopes:     req.scopes,
		limit:      req.limit,
		start:      time.Now(),
		span:       span,
		inputBytes: req.input,
		ctx:        cc,
		cancel:     cancel,
		token:      token,
		stopHangUp: stopHangUp,
	}, nil
}

// release frees what the call held: its exchange, its context, its place
// among the calls in flight (and its session's). It runs once, when the
// call is observed.
func (s *Server) release(c *callState) {
	if c.released {
		return
	}
	c.released = true
	c.ctx.x.close()
	if c.stopHangUp != nil {
		c.stopHangUp()
	}
	c.cancel(nil)
	if c.sessionCounted {
		s.inflight.leaveSession(c.ctx.session)
	}
	s.inflight.leave(c.token)
}

// newRequestID returns a fresh id for a call, such as 7KQ2M-XW4ZD, which
// ties together the records of one request.
func newRequestID() string {
	t := rand.Text()
	return t[:5] + "-" + t[5:10]
}

// tokenOf is the bearer token's information of a request, if any.
func tokenOf(extra *mcp.RequestExtra) *auth.TokenInfo {
	if extra == nil {
		return nil
	}
	return extra.TokenInfo
}

// errSessionBusy is the cause of a call refused beyond its session's limit.
var errSessionBusy = errors.New("the session has too many calls in flight")
