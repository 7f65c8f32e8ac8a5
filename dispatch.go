package mcpcore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// The dispatch: every tool call, resource read and prompt request goes
// through serve, in the same steps, each in one place:
//
//	newCall  the call's identity, built once: its definition, its request,
//	         the handler's Context
//	admit    every refusal before the handler, in one function: the server
//	         shutting down, the calls in flight (the session's, the
//	         server's), the Scopes, the RateLimit, the requestState; and
//	         the start of an admitted call (its span, its tie to a POST)
//	run      the definition's own work, under the panic guard: decode and
//	         validate, the interceptors and the handler, encode and bound
//	end      the one end of a call: classify a failure (failureOf), render
//	         and scrub it once (newWireError), log it once (logFailure),
//	         record the span and metrics, release what the call held
//
// What differs between the kinds of definition (what run does, how a result
// is sized, how a failure is answered) is a [callKind]'s.

// A definition is what the dispatch knows of a tool, resource or prompt,
// fixed when it is registered. The handler's Context holds it; a call
// points at it.
type definition struct {
	kind     string // "tool", "resource" or "prompt"
	name     string
	contract []Failure
	scopes   []string // checked before the handler runs
	limit    RateLimit
	template string // a resource's URI template; "" otherwise
}

// A callKind is what one kind of definition gives the dispatch for one call.
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

// A callState is one tool call, resource read or prompt request, from the
// moment the SDK hands it over until its end: its identity (the definition
// and the handler's Context, which holds the session, the token, the URI
// and the exchange), what the request brought, and what the call holds
// while it runs.
type callState struct {
	*definition
	ctx *Context
	// What the request brought: its params._meta (with the client's trace
	// context), its HTTP request, the protocol version of its session, and
	// the size of its input: a tool's arguments, a resource's URI, a
	// prompt's arguments.
	meta       map[string]any
	extra      *mcp.RequestExtra
	version    string
	inputBytes int
	// state is the requestState the client echoed; bind names the call it
	// must belong to (see binding), computed only when there is one.
	state string
	bind  func() string

	start  time.Time
	cancel context.CancelCauseFunc
	// token is the call's place in s.inflight; 0 until it is admitted.
	token      uint64
	stopHangUp func() bool     // nil unless the call came over HTTP
	observed   CallObservation // nil when nothing is recorded
	// task is nil unless the definition is a tool with a Task mode.
	task *taskCall
	// messages is the number of messages a prompt generated.
	messages int
}

// newCall builds a call's identity, once, from its definition and the
// SDK's request: the handler's Context, cancelled when the client cancels
// or the server stops waiting for it. The caller adds what only its kind
// of request has: the exchange with the client (newExchange, from the
// params), the size of the input, the requestState.
func newCall[P mcp.Params](s *Server, ctx context.Context, def *definition, req *mcp.ServerRequest[P]) *callState {
	ctx, cancel := context.WithCancelCause(ctx)
	meta := req.Params.GetMeta()
	cc := &Context{
		ctx:        ctx,
		definition: *def,
		base:       s.logger,
		session:    req.Session,
		clientLogs: s.wantsLogs(req.Session, meta),
		serverName: s.info.Name,
		srv:        s,
	}
	if req.Extra != nil {
		cc.token = req.Extra.TokenInfo
	}
	return &callState{definition: def, ctx: cc, meta: meta, extra: req.Extra, version: req.ProtocolVersion(),
		start: time.Now(), cancel: cancel}
}

// serve runs one call of a definition through the dispatch.
func serve[R any, K callKind[R]](s *Server, c *callState, k K) (R, error) {
	var zero R
	res, err := guard(func() (R, error) {
		if err := s.admit(c); err != nil {
			return zero, err
		}
		return k.run(c)
	})
	if c.token == 0 {
		// Refused at shutdown: the call never started, and is not recorded.
		c.cancel(nil)
		e, ok := err.(*mcperr.Error)
		if !ok {
			e = internalError(c.kind, c.name)
		}
		f, _ := newWireError(e)
		return k.fail(f)
	}
	if err == nil {
		s.end(c, nil, k.size(res))
		return res, nil
	}
	if err == errDetached {
		// The call is a task, which ends on its own (finishTask).
		return res, nil
	}
	if questions, next := c.ctx.x.inputRequired(err); questions != nil {
		// The round ends with questions for the client (ErrInputRequired):
		// a success of the round.
		s.end(c, nil, 0)
		return k.ask(questions, s.signState(c.bind(), next)), nil
	}
	return k.fail(s.end(c, err, 0))
}

// admit decides, in one place, whether a call runs. A call that comes
// while the server shuts down is refused before it starts (c.token stays
// 0). Any other is entered among the calls in flight, and started: its
// span begins from the client's traceparent, and a call of an HTTP POST is
// cancelled when the POST ends (the POST is found among the server's own
// endpoints by the name its endpoint gave it in a header). Then, in order,
// it is refused over its session's limit of calls in flight or the
// server's, without the definition's Scopes, with a requestState that
// fails verification, or over the definition's RateLimit; a call with a
// valid requestState resumes its exchange from the round the state
// carries. A tool that runs only as a task is refused last when no task
// can start (MaxTasks run, or the task store is away).
func (s *Server) admit(c *callState) error {
	cc := c.ctx
	ss := cc.session
	if s.cfg.Stateless {
		// A stateless call's session is no client's: it may be shared by
		// every call (see httpserve.SharedSessions). Only the server's
		// bound counts it.
		ss = nil
	}
	token, busy := s.inflight.enter(c.cancel, ss, s.cfg.MaxCallsPerSession, s.cfg.MaxCallsInFlight)
	if c.token = token; token == 0 {
		return mcperr.ServiceUnavailable("The server is shutting down; retry the request on a new connection.")
	}
	s.linkHangUp(c)
	if s.observer != nil {
		s.observe(c)
	}
	if busy != nil {
		return s.busy(busy)
	}
	if len(c.scopes) > 0 {
		if err := cc.RequireScopes(c.scopes...); err != nil {
			return err
		}
	}
	if c.task != nil && c.task.support.Mode == TaskRequired && !c.task.capable {
		return taskOnlyRefusal(c.name)
	}
	var r *round
	if c.state != "" {
		var err error
		if r, err = s.openState(c.bind(), c.state); err != nil {
			return badState()
		}
	}
	// Every round runs the handler, so every round counts: a state stays
	// valid for its hour, and a round replayed with it must not run the
	// handler past the quota.
	if !c.limit.IsZero() {
		if err := s.checkRateLimit(c); err != nil {
			return err
		}
	}
	if c.task != nil && c.task.support.Mode == TaskRequired {
		if err := s.taskRoom(); err != nil {
			return err
		}
	}
	if r != nil && cc.x != nil {
		cc.x.resume(r)
	}
	return nil
}

// linkHangUp cancels a call of an HTTP POST when the POST ends (the POST
// is found among the server's own endpoints by the name its endpoint gave
// it in a header).
func (s *Server) linkHangUp(c *callState) {
	if c.extra != nil {
		if post := s.endpoints.RequestContext(c.extra.Header); post != nil {
			c.stopHangUp = context.AfterFunc(post, func() { c.cancel(errHungUp) })
		}
	}
}

// tasksFull refuses a call of a tool that runs only as a task while
// Config.MaxTasks run.
func (s *Server) tasksFull() error {
	n := s.cfg.MaxTasks
	return mcperr.RateLimited(fmt.Sprintf("Too many tasks running on this server: at most %d run at once (MCP_MAX_TASKS). Retry in a while.", n),
		mcperr.WithData(map[string]any{"limit": n, "retryable": true, "retryAfter": 1}))
}

// busy is the RateLimited error of a call refused over a limit of calls in
// flight: its session's (errSessionBusy) or the server's (errServerBusy).
func (s *Server) busy(why error) error {
	if why == errSessionBusy {
		n := s.cfg.MaxCallsPerSession
		return mcperr.RateLimited(fmt.Sprintf("Too many calls in flight on this session: at most %d run at once (MCP_MAX_CALLS_PER_SESSION). Wait for some to finish, then retry.",
			n), mcperr.WithData(map[string]any{"limit": n}), mistake(errSessionBusy))
	}
	n := s.cfg.MaxCallsInFlight
	return mcperr.RateLimited(fmt.Sprintf("Too many calls in flight on this server: at most %d run at once (MCP_MAX_CALLS_IN_FLIGHT). Wait for some of yours to finish, then retry.",
		n), mcperr.WithData(map[string]any{"limit": n}), mistake(errServerBusy))
}

// end is the one place where a started call ends. It turns a failure into
// what the client is sent (classified by failureOf, rendered and scrubbed
// once by newWireError) and logs it once (logFailure), at the level the
// contract declares; it writes the completion record, ends the span and
// the metric points, and releases what the call held: its exchange, its
// context, its place among the calls in flight. It returns nil on success.
//
// The failure's handling runs under the panic guard: neither a bug of ours
// nor an error value whose methods panic can take the server down or leave
// a call unanswered. Such a call is answered with a generic InternalError.
//
// outputBytes is the size of a successful result; a failure's is that of
// its error object.
func (s *Server) end(c *callState, err error, outputBytes int) *wireError {
	defer func() {
		c.ctx.x.close()
		if c.stopHangUp != nil {
			c.stopHangUp()
		}
		c.cancel(nil)
		s.inflight.leave(c.token)
	}()
	var f *wireError
	if err != nil {
		var bug error
		f, bug = guard(func() (*wireError, error) {
			f, dropped := newWireError(failureOf(c.ctx, c.kind, c.name, err))
			s.logFailure(c, f, err, dropped)
			return f, nil
		})
		if bug != nil {
			f, _ = newWireError(internalError(c.kind, c.name))
			s.logBug(c, bug)
		}
		outputBytes = len(f.object)
	}
	s.complete(c, f, outputBytes)
	if c.observed != nil {
		s.record(c, f, err, outputBytes)
	}
	return f
}

// complete writes the call's completion record, at debug: with
// MCP_LOG_LEVEL=debug every call shows, and info stays quiet on success.
func (s *Server) complete(c *callState, f *wireError, outputBytes int) {
	defer func() { _ = recover() }() // a record is not worth a call
	if !s.logger.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	log := c.ctx.reqLog()
	attrs := []slog.Attr{
		slog.Float64("durationMs", float64(time.Since(c.start).Microseconds())/1000),
		slog.Bool("success", f == nil),
		slog.Int("inputBytes", c.inputBytes),
		slog.Int("outputBytes", outputBytes),
	}
	if f != nil {
		attrs = append(attrs, slog.Int("code", int(f.err.Code())))
	}
	log.LogAttrs(context.WithoutCancel(c.ctx), slog.LevelDebug, "Finished "+c.kind+":"+c.name, attrs...)
}

// logBug logs a failure of the failure handling itself, as best it can.
func (s *Server) logBug(c *callState, bug error) {
	defer func() { _ = recover() }()
	attrs := []slog.Attr{slog.String("bug", bug.Error())}
	if p, ok := bug.(*panicError); ok {
		attrs = append(attrs, slog.String("stack", string(p.stack)))
	}
	c.ctx.reqLog().LogAttrs(context.WithoutCancel(c.ctx), slog.LevelError,
		"Error in "+c.kind+":"+c.name+": the failure could not be handled", attrs...)
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

// newRequestID returns a fresh id for a call, such as 7KQ2M-XW4ZD, which
// ties together the records of one request.
func newRequestID() string {
	t := rand.Text()
	return t[:5] + "-" + t[5:10]
}

// errSessionBusy is the cause of a call refused beyond its session's limit.
var errSessionBusy = errors.New("the session has too many calls in flight")
