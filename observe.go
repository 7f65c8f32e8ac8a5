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
// failure into the error sent to the client and logs it once, at the level
// the contract declares; it returns nil on success.
func (s *Server) end(c *call, err error) *mcperr.Error {
	defer c.release()
	if err == nil {
		return nil
	}
	e := failureOf(c.ctx, c.kind, c.name, err)
	s.logFailure(c, e, err)
	return e
}

// logFailure writes the one "Error in <kind>:<name>: <message>" record of a
// failed call. A cancelled request is an ordinary event (info, no stack); a
// tool's declared failure is logged at its declared severity; everything
// else at error.
func (s *Server) logFailure(c *call, e *mcperr.Error, original error) {
	reason, hasReason := e.Data()["reason"].(string)
	level := slog.LevelError
	if e.Code() == mcperr.CodeRequestCancelled {
		level = slog.LevelInfo
	} else if f, ok := byReason(c.contract, reason); ok && hasReason && c.kind == "tool" {
		level = f.Severity.Level()
	}
	msg := e.Message()
	if msg == "" {
		msg = original.Error()
	}
	attrs := []slog.Attr{
		slog.Int("code", int(e.Code())),
		slog.String("codeName", e.Code().String()),
		slog.Float64("durationMs", float64(time.Since(c.start).Microseconds())/1000),
	}
	if hasReason {
		attrs = append(attrs, slog.String("reason", reason))
	}
	var p *panicError
	switch {
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
	c.ctx.log.LogAttrs(context.WithoutCancel(c.ctx), level, "Error in "+c.kind+":"+c.name+": "+msg, attrs...)
}
