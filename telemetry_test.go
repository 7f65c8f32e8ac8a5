package mcpcore_test

// The server's spans, metric points and log records, read through an
// in-memory metric reader and span recorder.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcpotel"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// observed is a server whose telemetry the test reads.
type observed struct {
	cs     *mcp.ClientSession
	logs   *wiretest.LogBuffer
	reader *sdkmetric.ManualReader
	spans  *tracetest.SpanRecorder
}

func observe(t *testing.T, defs ...mcpcore.Definition) *observed {
	t.Helper()
	o := &observed{reader: sdkmetric.NewManualReader(), spans: tracetest.NewSpanRecorder()}
	srv, logs := newServer(t, &mcpcore.ServerOptions{Observer: otelObserver(t, mcpotel.Options{
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(o.reader)),
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(o.spans)),
	})}, defs...)
	o.logs = logs
	o.cs = wiretest.Connect(t, srv.MCPServer())
	return o
}

// points returns the data points of a metric, as attribute sets (encoded)
// with their counts or values.
func (o *observed) points(t *testing.T, name string) map[string]float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := o.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					out[p.Attributes.Encoded(attribute.DefaultEncoder())] += float64(p.Value)
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					out[p.Attributes.Encoded(attribute.DefaultEncoder())] += float64(p.Count)
				}
			}
		}
	}
	return out
}

func TestTelemetryOfACall(t *testing.T) {
	t.Parallel()
	o := observe(t, severityServer(t)...)
	const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, s := range []string{"sev_default", "sev_notice"} {
		res, err := o.cs.CallTool(context.Background(), &mcp.CallToolParams{
			Name: s, Arguments: map[string]any{"case": "fail"}, Meta: mcp.Meta{"traceparent": traceparent},
		})
		if err != nil || !res.IsError {
			t.Fatalf("%s: %v %v", s, res, err)
		}
	}
	wiretest.CallTool(t, o.cs, "sev_default", map[string]any{})

	// One SERVER span per call, child of the client's trace, status Error
	// on failure; a declared severity changes nothing of it.
	ended := o.spans.Ended()
	if len(ended) != 3 {
		t.Fatalf("%d spans, want 3", len(ended))
	}
	for i, sp := range ended[:2] {
		if sp.SpanContext().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || sp.Parent().SpanID().String() != "00f067aa0ba902b7" {
			t.Errorf("span %s is not in the client's trace: %v / %v", sp.Name(), sp.SpanContext().TraceID(), sp.Parent().SpanID())
		}
		want := "tools/call " + []string{"sev_default", "sev_notice"}[i]
		if sp.Name() != want || sp.Status().Code != codes.Error || sp.Status().Description != "The caller declined the confirmation prompt." {
			t.Errorf("span %q status %v, want %q Error with the client's message", sp.Name(), sp.Status(), want)
		}
	}
	if ended[2].Status().Code == codes.Error {
		t.Errorf("a successful call's span has status Error")
	}

	// The records of a traced call carry its trace.
	for _, r := range o.logs.Failures(t, "sev_default") {
		if r["traceId"] != "4bf92f3577b34da6a3ce929d0e0e4736" || r["spanId"] == nil {
			t.Errorf("failure record without the trace: %v", r)
		}
	}

	// mcp.tool.* series: the same for the declared severity as without.
	calls := o.points(t, "mcp.tool.calls")
	if calls["mcp.tool.name=sev_default,mcp.tool.success=false"] != 1 || calls["mcp.tool.name=sev_notice,mcp.tool.success=false"] != 1 ||
		calls["mcp.tool.name=sev_default,mcp.tool.success=true"] != 1 {
		t.Errorf("mcp.tool.calls = %v", calls)
	}
	errs := o.points(t, "mcp.tool.errors")
	if errs["mcp.tool.error_category=InvalidRequest,mcp.tool.name=sev_default"] != 1 || errs["mcp.tool.error_category=InvalidRequest,mcp.tool.name=sev_notice"] != 1 {
		t.Errorf("mcp.tool.errors = %v", errs)
	}
	// mcp.errors.classified: mcp.error.severity only where declared.
	classified := o.points(t, "mcp.errors.classified")
	var sawSeverity, sawPlain bool
	for k := range classified {
		if strings.Contains(k, "operation=tool:sev_notice") {
			sawSeverity = strings.Contains(k, "mcp.error.severity=notice")
		}
		if strings.Contains(k, "operation=tool:sev_default") {
			sawPlain = !strings.Contains(k, "mcp.error.severity")
		}
		if strings.Contains(k, "reason") {
			t.Errorf("the reason is a metric attribute: %s", k)
		}
	}
	if !sawSeverity || !sawPlain {
		t.Errorf("mcp.errors.classified = %v", classified)
	}
	if d := o.points(t, "mcp.server.operation.duration"); len(d) == 0 {
		t.Errorf("no mcp.server.operation.duration points")
	}
}

// Concurrent calls never mix their request ids or trace ids: each record
// names the trace of its own call.
func TestConcurrentCallsKeepTheirIDs(t *testing.T) {
	t.Parallel()
	o := observe(t, severityServer(t)...)
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			tp := fmt.Sprintf("00-%032x-%016x-01", i+1, i+1)
			args := map[string]any{}
			if i%2 == 0 {
				args["case"] = "fail"
			}
			if _, err := o.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sev_default", Arguments: args, Meta: mcp.Meta{"traceparent": tp}}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for _, sp := range o.spans.Ended() {
		if sp.Parent().TraceID() != sp.SpanContext().TraceID() {
			t.Errorf("span %s left its client's trace", sp.Name())
		}
	}
	traceOf := map[string]string{}
	for _, r := range o.logs.Records(t) {
		id, _ := r["requestId"].(string)
		tr, _ := r["traceId"].(string)
		if id == "" {
			continue
		}
		if prev, ok := traceOf[id]; ok && prev != tr {
			t.Errorf("request %s logged under traces %s and %s", id, prev, tr)
		}
		traceOf[id] = tr
	}
	seen := map[string]bool{}
	for _, tr := range traceOf {
		if seen[tr] {
			t.Errorf("trace %s shared by two requests", tr)
		}
		seen[tr] = true
	}
	if len(traceOf) != n {
		t.Errorf("%d requests logged, want %d", len(traceOf), n)
	}
}

// A session is measured on any transport, from initialize to its end.
func TestSessionDurationOverHTTP(t *testing.T) {
	t.Parallel()
	reader := sdkmetric.NewManualReader()
	srv, _ := newServer(t, &mcpcore.ServerOptions{Observer: otelObserver(t, mcpotel.Options{
		MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
	})}, renderTool)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + mcpcore.HTTPPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.CallTool(t, cs, "render", map[string]any{})
	cs.Close()
	o := &observed{reader: reader}
	mcptest.WaitFor(t, "the session's duration", func() bool {
		for k := range o.points(t, "mcp.server.session.duration") {
			if strings.Contains(k, "network.transport=tcp") {
				return true
			}
		}
		return false
	})
}

// otelObserver is the OpenTelemetry observer on the providers of opts.
func otelObserver(tb testing.TB, opts mcpotel.Options) *mcpotel.Observer {
	tb.Helper()
	obs, err := mcpotel.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	return obs
}
