package mcpotel

import (
	"context"
	"io"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// An observedSession is one MCP session being observed, for
// mcp.server.session.duration. A nil *observedSession is valid: its End
// does nothing.
type observedSession struct {
	t     *Observer
	info  mcpcore.SessionInfo
	start time.Time
}

// StartSession begins observing a session. It returns nil when no metric
// is recorded.
func (t *Observer) StartSession(info mcpcore.SessionInfo) mcpcore.SessionObservation {
	if s := t.startSession(info); s != nil {
		return s
	}
	return nil // not a nil *observedSession in an interface
}

func (t *Observer) startSession(info mcpcore.SessionInfo) *observedSession {
	if t == nil || !t.metering {
		return nil
	}
	return &observedSession{t: t, info: info, start: time.Now()}
}

// End records the session's duration, once. err is why it ended:
// nil, io.EOF and context.Canceled are a normal close; anything else sets
// error.type, to the code's name for an *mcperr.Error and to _OTHER
// otherwise.
func (s *observedSession) End(err error) {
	if s == nil || s.t == nil {
		return
	}
	t := s.t
	s.t = nil
	inst := t.inst.session
	attrs := make([]attribute.KeyValue, 0, 4)
	switch s.info.Transport {
	case "stdio":
		attrs = append(attrs, inst.AttrNetworkTransport(mcpconv.NetworkTransportPipe))
	case "http":
		attrs = append(attrs, inst.AttrNetworkTransport(mcpconv.NetworkTransportTCP), inst.AttrNetworkProtocolName("http"))
	}
	if s.info.ProtocolVersion != "" {
		attrs = append(attrs, inst.AttrProtocolVersion(s.info.ProtocolVersion))
	}
	if err != nil && !errchain.Is(err, io.EOF) && !errchain.Is(err, context.Canceled) {
		errType := mcpconv.ErrorTypeOther
		if e, ok := errchain.As[*mcperr.Error](err); ok && e != nil {
			errType = mcpconv.ErrorTypeAttr(e.Code().String())
		}
		attrs = append(attrs, inst.AttrErrorType(errType))
	}
	inst.Record(context.Background(), time.Since(s.start).Seconds(), attrs...)
}
