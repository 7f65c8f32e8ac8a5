package mcpcore

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/internal/reqlog"
	"github.com/seed417024ea/mcpcore/internal/telemetry"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A callState is one tool call, resource read or prompt request, from the moment
// the dispatch accepts it until its outcome is observed.
type callState struct {
	kind     string
	name     string
	contract []Failure
	scopes   []string // the definition's, checked before the handler runs
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
		if post := httpserve.RequestContext(req.extra.Header); post != nil {
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

// end is the one place where a finished call is observed. It turns a
// failure into what the client is sent and logs it once, at the level the
// contract declares; it returns nil on success.
//
// All of that runs under the panic guard: neither a bug of ours nor an error
// value whose methods panic can take the server down or leave a call
// unanswered. Such a call is answered with a generic InternalError.
//
// outputBytes is the size of a successful result; a failure's is that of
// its error object.
func (s *Server) end(c *callState, err error, outputBytes int) *failure {
	defer s.release(c)
	var f *failure
	if err != nil {
		var bug error
		f, bug = guard(func() (*failure, error) { return s.observe(c, err), nil })
		if bug != nil {
			f, _ = newFailure(internalError(c.kind, c.name))
			s.logBug(c, bug)
		}
		outputBytes = len(f.object)
	}
	s.complete(c, f, outputBytes)
	s.record(c, f, err, outputBytes)
	return f
}

// record ends the call's span and metric points. A declared severity adds
// mcp.error.severity to mcp.errors.classified and changes nothing else.
func (s *Server) record(c *callState, f *failure, original error, outputBytes int) {
	defer func() { _ = recover() }() // telemetry is not worth a call
	o := telemetry.Outcome{OutputBytes: outputBytes, Messages: c.messages}
	if f != nil {
		o.Failed, o.Code, o.Message, o.Cause = true, f.err.Code(), f.err.Message(), original
		if d, ok := declaredFailure(c.contract, f.err); ok && c.kind == "tool" && d.Severity != SeverityError {
			o.Severity = string(d.Severity)
		}
	}
	c.span.End(o)
}

// complete writes the call's completion record, at debug: with
// MCP_LOG_LEVEL=debug every call shows, and info stays quiet on success.
func (s *Server) complete(c *callState, f *failure, outputBytes int) {
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

// observe classifies, encodes and logs a call's failure.
func (s *Server) observe(c *callState, err error) *failure {
	e := failureOf(c.ctx, c.kind, c.name, err)
	f, dropped := newFailure(e)
	s.logFailure(c, f, err, dropped)
	return f
}

// internalError is what a call that failed through a bug is sent: nothing
// about the bug reaches the client. opts may keep the bug as the cause, for
// the log.
func internalError(kind, name string, opts ...mcperr.Option) *mcperr.Error {
	return mcperr.InternalError(fmt.Sprintf("An internal error occurred in %s %s.", kind, name), opts...)
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

// logFailure writes the one "Error in <kind>:<name>: <message>" record of a
// failed call. A cancelled request is an ordinary event (info, no stack); a
// client without a capability the call needs is the client's limit, not
// the server's fault (warning); a client's mistake, such as arguments that
// do not fit the schema, is logged at notice; a tool's declared failure is logged at its
// declared severity (see declaredSeverity); everything else at error. dropped lists the data that
// could not be sent.
func (s *Server) logFailure(c *callState, f *failure, original error, dropped []string) {
	e := f.err
	level := slog.LevelError
	if e.Code() == mcperr.CodeRequestCancelled {
		level = slog.LevelInfo
	} else if e.Code() == mcperr.CodeMissingClientCapability {
		level = slog.LevelWarn
	} else if isMistake(e) {
		level = LevelNotice
	} else if c.kind == "tool" {
		if f, ok := declaredFailure(c.contract, e); ok {
			level = f.Severity.Level()
		}
	}
	// The message as the client got it; what it was before (a panic's
	// value, say) is in the original attribute.
	msg := f.message
	if msg == "" {
		msg = e.Error()
	}
	msg = "Error in " + c.kind + ":" + c.name + ": " + msg
	attrs := []slog.Attr{
		slog.String("operation", c.kind+":"+c.name),
		slog.Int("code", int(e.Code())),
		slog.String("codeName", e.Code().String()),
	}
	reason, hasReason := e.Data()["reason"].(string)
	if hasReason {
		attrs = append(attrs, slog.String("reason", reason))
	}
	// A panic reaches here as the guard made it, never wrapped.
	p, _ := original.(*panicError)
	site := ""
	if p != nil {
		site = panicSite(p.stack)
	}
	// The client, if it asked for log notifications, learns of the
	// failure what the result tells it: the code and the message. Repeats
	// are collapsed in the server's log only: each client hears of its
	// own failures.
	c.ctx.notifyClient(level, msg, slog.Int("code", int(e.Code())))
	if !s.repeats.Admit(repeatKey(c.kind, c.name, int(e.Code()), reason, site), level, msg, attrs) {
		return
	}
	// The logger carries the operation already.
	attrs = append(attrs[1:], slog.Float64("durationMs", float64(time.Since(c.start).Microseconds())/1000))
	switch {
	case isNil(original):
		attrs = append(attrs, slog.String("bug", e.Cause().Error()))
	case p != nil:
		attrs = append(attrs, slog.String("panic", fmt.Sprint(p.value)))
		if level != slog.LevelInfo {
			attrs = append(attrs, slog.String("stack", string(p.stack)))
		}
	case original != error(e):
		attrs = append(attrs,
			slog.String("originalType", fmt.Sprintf("%T", original)),
			slog.String("original", original.Error()))
	case e.Cause() != nil:
		// A declared failure built with WithCause: the cause is for the
		// operator, never the client.
		attrs = append(attrs, slog.String("cause", e.Cause().Error()))
	}
	if len(dropped) > 0 {
		attrs = append(attrs, slog.Any("unencodableData", dropped))
	}
	c.ctx.logRecord(level, msg, attrs...)
}

// declaredFailure returns the contract entry e was raised as. A declared
// severity applies to that declared failure only: same reason, same code,
// built by Fail or carrying the reason from a service. The framework's own
// errors about the contract (Fail with a failure not declared) are not it,
// whatever reason they name.
func declaredFailure(contract []Failure, e *mcperr.Error) (Failure, bool) {
	reason, ok := e.Data()["reason"].(string)
	if !ok || e.Cause() == errNotDeclared {
		return Failure{}, false
	}
	f, ok := byReason(contract, reason)
	if !ok || f.Code != e.Code() {
		return Failure{}, false
	}
	return f, true
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
