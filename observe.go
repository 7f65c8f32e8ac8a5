package mcpcore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A call is one tool call, resource read or prompt request, from the moment
// the dispatch accepts it until its outcome is observed.
type call struct {
	kind     string
	name     string
	contract []Failure
	start    time.Time
	ctx      *Context
	release  func()
}

// begin admits a call: it refuses new work while the server shuts down, and
// builds the handler's Context, cancelled when the client cancels or the
// server stops waiting for in-flight calls.
func (s *Server) begin(ctx context.Context, kind, name string, contract []Failure, session *mcp.ServerSession) (*call, *mcperr.Error) {
	release, ok := s.inflight.enter()
	if !ok {
		return nil, mcperr.ServiceUnavailable("The server is shutting down; retry the request on a new connection.")
	}
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(s.inflight.stopped, func() { cancel(errServerStopped) })
	log := s.logger.With(slog.String("operation", kind+":"+name))
	if session != nil && session.ID() != "" {
		log = log.With(slog.String("sessionId", session.ID()))
	}
	return &call{
		kind:     kind,
		name:     name,
		contract: contract,
		start:    time.Now(),
		ctx: &Context{
			Context:  ctx,
			kind:     kind,
			name:     name,
			contract: contract,
			log:      log,
			session:  session,
		},
		release: func() {
			stop()
			cancel(nil)
			release()
		},
	}, nil
}

var errServerStopped = errors.New("server stopped")

// end is the one place where a finished call is observed. It turns a
// failure into what the client is sent and logs it once, at the level the
// contract declares; it returns nil on success.
//
// All of that runs under the panic guard: neither a bug of ours nor an error
// value whose methods panic can take the server down or leave a call
// unanswered. Such a call is answered with a generic InternalError.
func (s *Server) end(c *call, err error) *failure {
	defer c.release()
	if err == nil {
		return nil
	}
	f, bug := guard(func() (*failure, error) { return s.observe(c, err), nil })
	if bug != nil {
		f = &failure{err: internalError(c.kind, c.name)}
		s.logBug(c, bug)
	}
	return f
}

// observe classifies, encodes and logs a call's failure.
func (s *Server) observe(c *call, err error) *failure {
	e := failureOf(c.ctx, c.kind, c.name, err)
	data, dropped := encodeData(e.Data())
	s.logFailure(c, e, err, dropped)
	return &failure{err: e, data: data}
}

// internalError is what a call that failed through a bug is sent: nothing
// about the bug reaches the client.
func internalError(kind, name string) *mcperr.Error {
	return mcperr.InternalError(fmt.Sprintf("An internal error occurred in %s %s.", kind, name))
}

// logBug logs a failure of the failure handling itself, as best it can.
func (s *Server) logBug(c *call, bug error) {
	defer func() { _ = recover() }()
	attrs := []slog.Attr{slog.String("bug", bug.Error())}
	var p *panicError
	if errors.As(bug, &p) {
		attrs = append(attrs, slog.String("stack", string(p.stack)))
	}
	c.ctx.log.LogAttrs(context.WithoutCancel(c.ctx), slog.LevelError,
		"Error in "+c.kind+":"+c.name+": the failure could not be handled", attrs...)
}

// logFailure writes the one "Error in <kind>:<name>: <message>" record of a
// failed call. A cancelled request is an ordinary event (info, no stack); a
// tool's declared failure is logged at its declared severity (see
// declaredSeverity); everything else at error. dropped lists the data that
// could not be sent.
func (s *Server) logFailure(c *call, e *mcperr.Error, original error, dropped []string) {
	level := slog.LevelError
	if e.Code() == mcperr.CodeRequestCancelled {
		level = slog.LevelInfo
	} else if c.kind == "tool" {
		if f, ok := declaredFailure(c.contract, e); ok {
			level = f.Severity.Level()
		}
	}
	msg := e.Message()
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
	var p *panicError
	site := ""
	if !isNil(original) && errors.As(original, &p) {
		site = panicSite(p.stack)
	}
	if !s.repeats.admit(repeatKey(c.kind, c.name, int(e.Code()), reason, site), level, msg, attrs) {
		return
	}
	// The logger carries the operation already.
	attrs = append(attrs[1:], slog.Float64("durationMs", float64(time.Since(c.start).Microseconds())/1000))
	switch {
	case isNil(original):
		attrs = append(attrs, slog.String("bug", e.Cause().Error()))
	case errors.As(original, &p):
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
	c.ctx.log.LogAttrs(context.WithoutCancel(c.ctx), level, msg, attrs...)
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
