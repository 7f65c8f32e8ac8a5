package telemetry

import (
	"context"
	"io"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Session is one MCP session being observed, for
// mcp.server.session.duration. A nil *Session is valid: its End does
// nothing.
type Session struct {
	t         *Telemetry
	transport string
	start     time.Time
}

// StartSession begins observing a session served over transport ("stdio" or
// "http"). It returns nil when no metric is recorded.
func (t *Telemetry) StartSession(transport string) *Session {
	if t == nil || !t.metering {
		return nil
	}
	return &Session{t: t, transport: transport, start: time.Now()}
}

// End records the session's duration, once. protocolVersion is the version
// the session negotiated ("" if it never initialized). err is why it ended:
// nil, io.EOF and context.Canceled are a normal close; anything else sets
// error.type, to the code's name for an *mcperr.Error and to _OTHER
// otherwise.
func (s *Session) End(protocolVersion string, err error) {
	if s == nil || s.t == nil {
		return
	}
	t := s.t
	s.t = nil
	inst := t.inst.session
	attrs := make([]attribute.KeyValue, 0, 4)
	switch s.transport {
	case "stdio":
		attrs = append(attrs, inst.AttrNetworkTransport(mcpconv.NetworkTransportPipe))
	case "http":
		attrs = append(attrs, inst.AttrNetworkTransport(mcpconv.NetworkTransportTCP), inst.AttrNetworkProtocolName("http"))
	}
	if protocolVersion != "" {
		attrs = append(attrs, inst.AttrProtocolVersion(protocolVersion))
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
