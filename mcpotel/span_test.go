package mcpotel

import (
	"github.com/seed417024ea/mcpcore"

	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/trace"
)

const (
	metaTrace   = "4bf92f3577b34da6a3ce929b0e0e4736"
	metaSpan    = "00f067aa0ba902b7"
	headerTrace = "0af7651916cd43dd8448eb211c80319c"
	headerSpan  = "b7ad6b7169203331"
)

func traceparent(traceID, spanID string) string { return "00-" + traceID + "-" + spanID + "-01" }

// TestTraceContext: the parent of a call's span comes from params._meta,
// else from the HTTP headers, else from ctx; and the returned context
// carries the call's span, so a handler's own span nests under it.
func TestTraceContext(t *testing.T) {
	local := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	tests := []struct {
		name              string
		ctx               context.Context
		meta              map[string]any
		header            http.Header
		wantTrace, wantSp string // "" for no parent
		wantRemote        bool
	}{
		{name: "none", ctx: context.Background()},
		{name: "meta", ctx: context.Background(),
			meta:      map[string]any{"traceparent": traceparent(metaTrace, metaSpan), "tracestate": "vendor=1", "progressToken": 3},
			wantTrace: metaTrace, wantSp: metaSpan, wantRemote: true},
		{name: "header", ctx: context.Background(),
			header:    http.Header{"Traceparent": {traceparent(headerTrace, headerSpan)}},
			wantTrace: headerTrace, wantSp: headerSpan, wantRemote: true},
		{name: "meta wins over header", ctx: context.Background(),
			meta:      map[string]any{"traceparent": traceparent(metaTrace, metaSpan)},
			header:    http.Header{"Traceparent": {traceparent(headerTrace, headerSpan)}},
			wantTrace: metaTrace, wantSp: metaSpan, wantRemote: true},
		{name: "ctx", ctx: trace.ContextWithSpanContext(context.Background(), local),
			wantTrace: local.TraceID().String(), wantSp: local.SpanID().String()},
		{name: "meta wins over ctx", ctx: trace.ContextWithSpanContext(context.Background(), local),
			meta:      map[string]any{"traceparent": traceparent(metaTrace, metaSpan)},
			wantTrace: metaTrace, wantSp: metaSpan, wantRemote: true},
		{name: "meta not a string", ctx: context.Background(),
			meta: map[string]any{"traceparent": 12}},
		{name: "meta malformed", ctx: context.Background(),
			meta: map[string]any{"traceparent": "00-zz-yy-01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			info := toolCall
			info.Meta, info.Header = tt.meta, tt.header
			ctx, c := h.tel.start(tt.ctx, info)
			_, child := h.tp.Tracer("handler").Start(ctx, "query")
			child.End()
			c.End(mcpcore.CallOutcome{})

			spans := h.spans.Ended()
			if len(spans) != 2 {
				t.Fatalf("%d spans, want 2", len(spans))
			}
			query, call := spans[0], spans[1]
			if query.Parent().SpanID() != call.SpanContext().SpanID() || query.SpanContext().TraceID() != call.SpanContext().TraceID() {
				t.Errorf("the handler's span does not nest under the call's")
			}
			p := call.Parent()
			if tt.wantTrace == "" {
				if p.IsValid() {
					t.Errorf("parent = %v, want none", p)
				}
				return
			}
			if p.TraceID().String() != tt.wantTrace || p.SpanID().String() != tt.wantSp || p.IsRemote() != tt.wantRemote {
				t.Errorf("parent = %s/%s remote=%v, want %s/%s remote=%v",
					p.TraceID(), p.SpanID(), p.IsRemote(), tt.wantTrace, tt.wantSp, tt.wantRemote)
			}
			if call.SpanContext().TraceID().String() != tt.wantTrace {
				t.Errorf("trace id %s, want %s", call.SpanContext().TraceID(), tt.wantTrace)
			}
		})
	}
}

// TestTraceStateAndBaggage: tracestate and baggage in _meta reach the
// handler's context too.
func TestTraceStateAndBaggage(t *testing.T) {
	h := newHarness(t)
	info := toolCall
	info.Meta = map[string]any{"traceparent": traceparent(metaTrace, metaSpan), "tracestate": "vendor=1", "baggage": "tenant=acme"}
	ctx, c := h.tel.start(context.Background(), info)
	defer c.End(mcpcore.CallOutcome{})
	if got := baggage.FromContext(ctx).Member("tenant").Value(); got != "acme" {
		t.Errorf("baggage tenant = %q, want acme", got)
	}
	if got := trace.SpanContextFromContext(ctx).TraceState().Get("vendor"); got != "1" {
		t.Errorf("tracestate vendor = %q, want 1", got)
	}
}

// TestInject writes the call's trace context in another request's _meta,
// where Start on the other side reads it.
func TestInject(t *testing.T) {
	h := newHarness(t)
	ctx, c := h.tel.start(context.Background(), toolCall)
	meta := map[string]any{}
	h.tel.Inject(ctx, meta)
	c.End(mcpcore.CallOutcome{})

	info := promptCall
	info.Meta = meta
	_, c2 := h.tel.start(context.Background(), info)
	c2.End(mcpcore.CallOutcome{})
	spans := h.spans.Ended()
	if spans[1].Parent().SpanID() != spans[0].SpanContext().SpanID() {
		t.Errorf("the injected context is not the second call's parent; meta = %v", meta)
	}
}

// TestConcurrentCalls: calls in flight together keep their own trace and
// request ids (run with -race).
func TestConcurrentCalls(t *testing.T) {
	h := newHarness(t)
	const n = 50
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			info := toolCall
			info.RequestID = fmt.Sprint(i)
			info.Meta = map[string]any{"traceparent": traceparent(fmt.Sprintf("%032x", i+1), metaSpan)}
			_, c := h.tel.start(context.Background(), info)
			c.End(mcpcore.CallOutcome{})
		})
	}
	wg.Wait()
	spans := h.spans.Ended()
	if len(spans) != n {
		t.Fatalf("%d spans, want %d", len(spans), n)
	}
	for _, s := range spans {
		var id string
		for _, a := range s.Attributes() {
			if a.Key == keyRequestID {
				id = a.Value.AsString()
			}
		}
		var i int
		fmt.Sscan(id, &i)
		if want := fmt.Sprintf("%032x", i+1); s.SpanContext().TraceID().String() != want {
			t.Errorf("request %s has trace %s, want %s", id, s.SpanContext().TraceID(), want)
		}
	}
	if got := h.points(t)["mcp.tool.calls"]["mcp.tool.name=fetch_articles,mcp.tool.success=true"]; got != fmt.Sprint(n) {
		t.Errorf("mcp.tool.calls = %s, want %d", got, n)
	}
}

// TestTraceIDs: the ids of the call's span, for its log records; none
// outside a span.
func TestTraceIDs(t *testing.T) {
	h := newHarness(t)
	if tr, sp := h.tel.TraceIDs(context.Background()); tr != "" || sp != "" {
		t.Errorf("TraceIDs outside a span = %q, %q", tr, sp)
	}
	ctx, c := h.tel.StartCall(context.Background(), toolCall)
	sc := trace.SpanContextFromContext(ctx)
	if tr, sp := h.tel.TraceIDs(ctx); tr != sc.TraceID().String() || sp != sc.SpanID().String() || !sc.IsValid() {
		t.Errorf("TraceIDs = %q, %q; want %s, %s", tr, sp, sc.TraceID(), sc.SpanID())
	}
	c.End(mcpcore.CallOutcome{})
}
