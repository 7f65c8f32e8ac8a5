package mcpotel

import (
	"context"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

// An observedCall is one call being observed, from [Observer.StartCall]
// to its End. A nil *observedCall is valid: its End does nothing.
type observedCall struct {
	t     *Observer
	kind  kind
	info  mcpcore.CallInfo
	ctx   context.Context
	span  trace.Span
	start time.Time
}

// A kind indexes surfaces and methods.
type kind uint8

const (
	kindTool kind = iota
	kindResource
	kindPrompt
)

func kindOf(s string) (kind, bool) {
	switch s {
	case "tool":
		return kindTool, true
	case "resource":
		return kindResource, true
	case "prompt":
		return kindPrompt, true
	}
	return 0, false
}

// StartCall begins observing one call. It reads the client's trace context from
// c.Header, then from c.Meta (so _meta wins, as the conventions say),
// falling back to whatever span ctx already carries, and starts the SERVER
// span "<method> <target>": "tools/call fetch_articles",
// "resources/read <uri>", "prompts/get <name>". The returned context carries
// the span, so spans a handler starts, and calls it makes through
// instrumented clients, nest under it.
//
// When nothing is recorded (no provider given), or for an unknown kind,
// StartCall returns ctx and nil at once.
func (t *Observer) StartCall(ctx context.Context, c mcpcore.CallInfo) (context.Context, mcpcore.CallObservation) {
	ctx, call := t.start(ctx, c)
	if call == nil {
		return ctx, nil // not a nil *observedCall in an interface
	}
	return ctx, call
}

// start is StartCall with the concrete type.
func (t *Observer) start(ctx context.Context, c mcpcore.CallInfo) (context.Context, *observedCall) {
	if t == nil || !t.enabled() {
		return ctx, nil
	}
	k, ok := kindOf(c.Kind)
	if !ok {
		return ctx, nil
	}
	call := &observedCall{t: t, kind: k, info: c, start: time.Now()}
	if t.metering {
		t.inst.active.Add(ctx, 1)
	}
	if t.tracing {
		if c.Header != nil {
			ctx = t.prop.Extract(ctx, propagation.HeaderCarrier(c.Header))
		}
		if c.Meta != nil {
			ctx = t.prop.Extract(ctx, metaCarrier(c.Meta))
		}
		attrs := make([]attribute.KeyValue, 0, 9)
		attrs = append(attrs, keyMethod.String(methods[k]))
		attrs = call.operationAttrs(attrs, false)
		if c.SessionID != "" {
			attrs = append(attrs, keySessionID.String(c.SessionID))
		}
		if c.RequestID != "" {
			attrs = append(attrs, keyRequestID.String(c.RequestID))
		}
		ctx, call.span = t.tracer.Start(ctx, call.spanName(),
			trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	}
	call.ctx = ctx
	return ctx, call
}

// spanName is "<mcp.method.name> <target>": the tool's or prompt's name.
// A resource's span is named by its method alone, as the conventions
// advise: a URI is unbounded, and may hold what should not be in a name.
func (c *observedCall) spanName() string {
	if c.kind == kindResource {
		return methods[c.kind]
	}
	return methods[c.kind] + " " + c.info.Name
}

// operationAttrs appends the attributes the span and
// mcp.server.operation.duration share, but for mcp.method.name, which the
// typed mcpconv helper adds itself.
//
// A resource's mcp.resource.uri is the URI read (scrubbed) on the span, and
// its template on the metric, whose series must stay bounded.
func (c *observedCall) operationAttrs(attrs []attribute.KeyValue, metric bool) []attribute.KeyValue {
	switch c.kind {
	case kindTool:
		attrs = append(attrs, keyToolName.String(c.info.Name), keyOperationName.String(executeTool))
	case kindResource:
		uri := c.info.URI
		if metric || uri == "" {
			uri = c.info.Template
		}
		if uri == "" {
			uri = c.info.Name
		}
		attrs = append(attrs, keyResourceURI.String(safeURI(uri)))
	case kindPrompt:
		attrs = append(attrs, keyPromptName.String(c.info.Name))
	}
	switch c.info.Transport {
	case "stdio":
		attrs = append(attrs, keyTransport.String("pipe"))
	case "http":
		attrs = append(attrs, keyTransport.String("tcp"), keyProtocolName.String("http"))
	}
	if c.info.ProtocolVersion != "" {
		attrs = append(attrs, keyProtocolVersion.String(c.info.ProtocolVersion))
	}
	return attrs
}

// safeURI is uri without user information, query and fragment, which may
// hold credentials or personal data, and with the secrets the process
// keeps masked. What cannot be parsed is cut at '?' and '#' and scrubbed.
func safeURI(uri string) string {
	return dropSecrets(redact.Mask(uri))
}

func dropSecrets(uri string) string {
	if !strings.ContainsAny(uri, "@?#") {
		return redact.String(uri) // a token can stand in a path too
	}
	u, err := url.Parse(uri)
	if err != nil {
		uri, _, _ = strings.Cut(uri, "?")
		uri, _, _ = strings.Cut(uri, "#")
		return redact.String(uri)
	}
	u.User = nil
	u.RawQuery, u.ForceQuery = "", false
	u.Fragment, u.RawFragment = "", ""
	return redact.String(u.String())
}

// metaCarrier reads and writes trace context in params._meta. Only string
// values are read: anything else under those keys is not trace context.
type metaCarrier map[string]any

var _ propagation.TextMapCarrier = metaCarrier(nil)

// Get returns the string value of key, or "".
func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

// Set stores value under key.
func (m metaCarrier) Set(key, value string) { m[key] = value }

// Keys lists the keys that hold strings.
func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if _, ok := v.(string); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// Inject writes the trace context of ctx into meta, under traceparent and
// tracestate: what a server that calls another MCP server puts in its
// request's _meta.
func (t *Observer) Inject(ctx context.Context, meta map[string]any) {
	t.prop.Inject(ctx, metaCarrier(meta))
}
