package mcpotel

import (
	"github.com/seed417024ea/mcpcore"

	"context"
	"errors"
	"reflect"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// The calls of the table: one success and one failure of each kind.
var (
	toolCall = mcpcore.CallInfo{Kind: "tool", Name: "fetch_articles", SessionID: "s-1", RequestID: "7",
		Transport: "stdio", ProtocolVersion: "2025-06-18", InputBytes: 42}
	resourceCall = mcpcore.CallInfo{Kind: "resource", Name: "article", URI: "articles://user:pw@host/123?api_key=k#top", Template: "articles://host/{id}",
		SessionID: "s-2", RequestID: "\"abc\"", Transport: "http", InputBytes: 5}
	promptCall = mcpcore.CallInfo{Kind: "prompt", Name: "summarize", RequestID: "9", Transport: "stdio", InputBytes: 17}

	// A failure whose cause holds a secret: the exception event has the
	// client's message, not the cause's text.
	notFound = mcpcore.CallOutcome{Failed: true, Code: mcperr.CodeNotFound, Message: "None of 2 PMIDs returned data",
		Cause: errors.New("upstream refused: token=s3cr3t-value")}
	scrubbed = `exception exception.message=None of 2 PMIDs returned data,exception.type=*errors.errorString`
)

// TestEnd checks every instrument, attribute and span that one call of each
// kind records, on success and on failure, against a table.
func TestEnd(t *testing.T) {
	tests := []struct {
		name    string
		info    mcpcore.CallInfo
		outcome mcpcore.CallOutcome
		points  map[string]map[string]string
		span    spanView
	}{{
		name:    "tool success",
		info:    toolCall,
		outcome: mcpcore.CallOutcome{OutputBytes: 100},
		points: map[string]map[string]string{
			"mcp.tool.calls":        {"mcp.tool.name=fetch_articles,mcp.tool.success=true": "1"},
			"mcp.tool.duration":     {"mcp.tool.name=fetch_articles,mcp.tool.success=true": "n=1"},
			"mcp.tool.input_bytes":  {"mcp.tool.name=fetch_articles": "n=1 sum=42"},
			"mcp.tool.output_bytes": {"mcp.tool.name=fetch_articles": "n=1 sum=100"},
			"mcp.requests.active":   {"": "0"},
			"mcp.server.operation.duration": {
				"gen_ai.operation.name=execute_tool,gen_ai.tool.name=fetch_articles,mcp.method.name=tools/call,mcp.protocol.version=2025-06-18,network.transport=pipe": "n=1"},
		},
		span: spanView{Name: "tools/call fetch_articles", Kind: "server", Status: "Unset",
			Attrs: "gen_ai.operation.name=execute_tool,gen_ai.tool.name=fetch_articles,jsonrpc.request.id=7,mcp.method.name=tools/call,mcp.protocol.version=2025-06-18,mcp.session.id=s-1,network.transport=pipe"},
	}, {
		name:    "tool failure",
		info:    toolCall,
		outcome: notFound,
		points: map[string]map[string]string{
			"mcp.tool.calls":        {"mcp.tool.name=fetch_articles,mcp.tool.success=false": "1"},
			"mcp.tool.duration":     {"mcp.tool.name=fetch_articles,mcp.tool.success=false": "n=1"},
			"mcp.tool.errors":       {"mcp.tool.error_category=NotFound,mcp.tool.name=fetch_articles": "1"},
			"mcp.tool.input_bytes":  {"mcp.tool.name=fetch_articles": "n=1 sum=42"},
			"mcp.errors.classified": {"mcp.error.classified_code=-32001,operation=tool:fetch_articles": "1"},
			"mcp.requests.active":   {"": "0"},
			"mcp.server.operation.duration": {
				"error.type=NotFound,gen_ai.operation.name=execute_tool,gen_ai.tool.name=fetch_articles,mcp.method.name=tools/call,mcp.protocol.version=2025-06-18,network.transport=pipe,rpc.response.status_code=-32001": "n=1"},
		},
		span: spanView{Name: "tools/call fetch_articles", Kind: "server", Status: "Error: None of 2 PMIDs returned data",
			Attrs:  "error.type=NotFound,gen_ai.operation.name=execute_tool,gen_ai.tool.name=fetch_articles,jsonrpc.request.id=7,mcp.method.name=tools/call,mcp.protocol.version=2025-06-18,mcp.session.id=s-1,network.transport=pipe,rpc.response.status_code=-32001",
			Events: []string{scrubbed}},
	}, {
		name:    "resource success",
		info:    resourceCall,
		outcome: mcpcore.CallOutcome{OutputBytes: 2048},
		points: map[string]map[string]string{
			"mcp.resource.reads":        {"mcp.resource.name=article,mcp.resource.success=true": "1"},
			"mcp.resource.duration":     {"mcp.resource.name=article,mcp.resource.success=true": "n=1"},
			"mcp.resource.output_bytes": {"mcp.resource.name=article": "n=1 sum=2048"},
			"mcp.requests.active":       {"": "0"},
			"mcp.server.operation.duration": {
				"mcp.method.name=resources/read,mcp.resource.uri=articles://host/{id},network.protocol.name=http,network.transport=tcp": "n=1"},
		},
		span: spanView{Name: "resources/read", Kind: "server", Status: "Unset",
			Attrs: `jsonrpc.request.id="abc",mcp.method.name=resources/read,mcp.resource.uri=articles://host/123,mcp.session.id=s-2,network.protocol.name=http,network.transport=tcp`},
	}, {
		name: "resource failure",
		info: resourceCall,
		outcome: mcpcore.CallOutcome{Failed: true, Code: mcperr.CodeNotFound, Message: "No article 123.",
			Cause: mcperr.NotFound("No article 123.")},
		points: map[string]map[string]string{
			"mcp.resource.reads":    {"mcp.resource.name=article,mcp.resource.success=false": "1"},
			"mcp.resource.duration": {"mcp.resource.name=article,mcp.resource.success=false": "n=1"},
			"mcp.resource.errors":   {"mcp.resource.error_category=NotFound,mcp.resource.name=article": "1"},
			"mcp.errors.classified": {"mcp.error.classified_code=-32001,operation=resource:article": "1"},
			"mcp.requests.active":   {"": "0"},
			"mcp.server.operation.duration": {
				"error.type=NotFound,mcp.method.name=resources/read,mcp.resource.uri=articles://host/{id},network.protocol.name=http,network.transport=tcp,rpc.response.status_code=-32001": "n=1"},
		},
		span: spanView{Name: "resources/read", Kind: "server", Status: "Error: No article 123.",
			Attrs:  `error.type=NotFound,jsonrpc.request.id="abc",mcp.method.name=resources/read,mcp.resource.uri=articles://host/123,mcp.session.id=s-2,network.protocol.name=http,network.transport=tcp,rpc.response.status_code=-32001`,
			Events: []string{"exception exception.message=No article 123.,exception.type=*mcperr.Error"}},
	}, {
		name:    "prompt success",
		info:    promptCall,
		outcome: mcpcore.CallOutcome{OutputBytes: 300, Messages: 2},
		points: map[string]map[string]string{
			"mcp.prompt.generations":   {"mcp.prompt.name=summarize,mcp.prompt.success=true": "1"},
			"mcp.prompt.duration":      {"mcp.prompt.name=summarize,mcp.prompt.success=true": "n=1"},
			"mcp.prompt.input_bytes":   {"mcp.prompt.name=summarize": "n=1 sum=17"},
			"mcp.prompt.output_bytes":  {"mcp.prompt.name=summarize": "n=1 sum=300"},
			"mcp.prompt.message_count": {"mcp.prompt.name=summarize": "n=1 sum=2"},
			"mcp.requests.active":      {"": "0"},
			"mcp.server.operation.duration": {
				"gen_ai.prompt.name=summarize,mcp.method.name=prompts/get,network.transport=pipe": "n=1"},
		},
		span: spanView{Name: "prompts/get summarize", Kind: "server", Status: "Unset",
			Attrs: "gen_ai.prompt.name=summarize,jsonrpc.request.id=9,mcp.method.name=prompts/get,network.transport=pipe"},
	}, {
		name: "prompt failure without a cause",
		info: promptCall,
		outcome: mcpcore.CallOutcome{Failed: true, Code: mcperr.CodeInternalError,
			Message: "An internal error occurred in prompt summarize."},
		points: map[string]map[string]string{
			"mcp.prompt.generations": {"mcp.prompt.name=summarize,mcp.prompt.success=false": "1"},
			"mcp.prompt.duration":    {"mcp.prompt.name=summarize,mcp.prompt.success=false": "n=1"},
			"mcp.prompt.errors":      {"mcp.prompt.error_category=InternalError,mcp.prompt.name=summarize": "1"},
			"mcp.prompt.input_bytes": {"mcp.prompt.name=summarize": "n=1 sum=17"},
			"mcp.errors.classified":  {"mcp.error.classified_code=-32603,operation=prompt:summarize": "1"},
			"mcp.requests.active":    {"": "0"},
			"mcp.server.operation.duration": {
				"error.type=InternalError,gen_ai.prompt.name=summarize,mcp.method.name=prompts/get,network.transport=pipe,rpc.response.status_code=-32603": "n=1"},
		},
		span: spanView{Name: "prompts/get summarize", Kind: "server", Status: "Error: An internal error occurred in prompt summarize.",
			Attrs: "error.type=InternalError,gen_ai.prompt.name=summarize,jsonrpc.request.id=9,mcp.method.name=prompts/get,network.transport=pipe,rpc.response.status_code=-32603"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.call(tt.info, tt.outcome)
			if d := diffPoints(h.points(t), tt.points); d != "" {
				t.Errorf("metric points differ:\n%s", d)
			}
			spans := h.ended()
			if len(spans) != 1 {
				t.Fatalf("got %d spans, want 1", len(spans))
			}
			if !reflect.DeepEqual(spans[0], tt.span) {
				t.Errorf("span:\ngot  %+v\nwant %+v", spans[0], tt.span)
			}
		})
	}
}

// TestEndInstrumentShape checks kind, unit and temporality of the
// counters and histograms through metricdatatest, which the flat table of
// TestEnd does not show.
func TestEndInstrumentShape(t *testing.T) {
	h := newHarness(t)
	h.call(toolCall, notFound)
	want := map[string]metricdata.Metrics{
		"mcp.tool.calls": {
			Name: "mcp.tool.calls", Unit: "{calls}", Description: "Tool calls, by tool and outcome.",
			Data: metricdata.Sum[int64]{Temporality: metricdata.CumulativeTemporality, IsMonotonic: true,
				DataPoints: []metricdata.DataPoint[int64]{{Value: 1, Attributes: attribute.NewSet(
					attribute.String("mcp.tool.name", "fetch_articles"), attribute.Bool("mcp.tool.success", false))}}},
		},
		"mcp.errors.classified": {
			Name: "mcp.errors.classified", Unit: "{errors}", Description: "Failures sent to clients, by code and operation.",
			Data: metricdata.Sum[int64]{Temporality: metricdata.CumulativeTemporality, IsMonotonic: true,
				DataPoints: []metricdata.DataPoint[int64]{{Value: 1, Attributes: attribute.NewSet(
					attribute.String("mcp.error.classified_code", "-32001"), attribute.String("operation", "tool:fetch_articles"))}}},
		},
		"mcp.tool.duration": {
			Name: "mcp.tool.duration", Unit: "ms", Description: "Tool call duration.",
			Data: metricdata.Histogram[float64]{Temporality: metricdata.CumulativeTemporality,
				DataPoints: []metricdata.HistogramDataPoint[float64]{{Attributes: attribute.NewSet(
					attribute.String("mcp.tool.name", "fetch_articles"), attribute.Bool("mcp.tool.success", false))}}},
		},
		"mcp.server.operation.duration": {
			Name: "mcp.server.operation.duration", Unit: "s",
			Description: "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.",
			Data: metricdata.Histogram[float64]{Temporality: metricdata.CumulativeTemporality,
				DataPoints: []metricdata.HistogramDataPoint[float64]{{Attributes: attribute.NewSet(
					attribute.String("error.type", "NotFound"),
					attribute.String("gen_ai.operation.name", "execute_tool"),
					attribute.String("gen_ai.tool.name", "fetch_articles"),
					attribute.String("mcp.method.name", "tools/call"),
					attribute.String("mcp.protocol.version", "2025-06-18"),
					attribute.String("network.transport", "pipe"),
					attribute.String("rpc.response.status_code", "-32001"))}}},
		},
	}
	rm := h.collect(t)
	seen := 0
	var calls metricdata.Metrics
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != ScopeName {
			t.Errorf("scope %q, want %q", sm.Scope.Name, ScopeName)
		}
		for _, m := range sm.Metrics {
			w, ok := want[m.Name]
			if !ok {
				continue
			}
			seen++
			metricdatatest.AssertEqual(t, w, m, metricdatatest.IgnoreTimestamp(), metricdatatest.IgnoreValue(), metricdatatest.IgnoreExemplars())
			if m.Name == "mcp.tool.calls" {
				calls = m
			}
		}
	}
	// Points are recorded in the span's context: the exemplar links the
	// metric to the trace.
	ex := calls.Data.(metricdata.Sum[int64]).DataPoints[0].Exemplars
	span := h.spans.Ended()[0].SpanContext()
	if len(ex) != 1 || trace.TraceID(ex[0].TraceID) != span.TraceID() {
		t.Errorf("exemplars %v do not name the call's trace %s", ex, span.TraceID())
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d instruments", seen, len(want))
	}
}

// TestSeverityInvariant: a declared severity adds mcp.error.severity to
// mcp.errors.classified and changes nothing else: span status, attributes
// and events, and every other series are those of the same failure
// undeclared.
func TestSeverityInvariant(t *testing.T) {
	undeclared, declared := newHarness(t), newHarness(t)
	undeclared.call(toolCall, notFound)
	o := notFound
	o.Severity = "notice"
	declared.call(toolCall, o)

	if u, d := undeclared.ended(), declared.ended(); !reflect.DeepEqual(u, d) {
		t.Errorf("spans differ:\nundeclared %+v\ndeclared   %+v", u, d)
	}
	u, d := undeclared.points(t), declared.points(t)
	wantU := map[string]string{"mcp.error.classified_code=-32001,operation=tool:fetch_articles": "1"}
	wantD := map[string]string{"mcp.error.classified_code=-32001,mcp.error.severity=notice,operation=tool:fetch_articles": "1"}
	if !reflect.DeepEqual(u["mcp.errors.classified"], wantU) || !reflect.DeepEqual(d["mcp.errors.classified"], wantD) {
		t.Errorf("mcp.errors.classified:\nundeclared %v\ndeclared   %v", u["mcp.errors.classified"], d["mcp.errors.classified"])
	}
	delete(u, "mcp.errors.classified")
	delete(d, "mcp.errors.classified")
	if diff := diffPoints(d, u); diff != "" {
		t.Errorf("a declared severity changed other series:\n%s", diff)
	}
}

// TestEndOnce: a second End, or End on the nil Call of a disabled
// Telemetry, records nothing.
func TestEndOnce(t *testing.T) {
	h := newHarness(t)
	_, c := h.tel.start(context.Background(), toolCall)
	c.End(mcpcore.CallOutcome{})
	c.End(notFound)
	if got := h.points(t)["mcp.tool.calls"]; len(got) != 1 {
		t.Errorf("mcp.tool.calls = %v, want one success", got)
	}
	if n := len(h.spans.Ended()); n != 1 {
		t.Errorf("%d spans ended, want 1", n)
	}
	var nilCall *observedCall
	nilCall.End(notFound) // must not panic
}

// panicky is an error whose Error method panics, as a typed nil's may.
type panicky struct{ msg *string }

func (p *panicky) Error() string { return *p.msg }

// TestExceptionNeverPanics: a cause whose Error panics is recorded by its
// type, and the call's span still ends.
func TestExceptionNeverPanics(t *testing.T) {
	h := newHarness(t)
	h.call(toolCall, mcpcore.CallOutcome{Failed: true, Code: mcperr.CodeInternalError, Message: "x", Cause: (*panicky)(nil)})
	spans := h.ended()
	if len(spans) != 1 || len(spans[0].Events) != 1 || spans[0].Events[0] != "exception exception.message=x,exception.type=*mcpotel.panicky" {
		t.Errorf("spans = %+v", spans)
	}
}

// TestUnknownKind: a kind the package does not know is not observed, and
// does not crash.
func TestUnknownKind(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	got, c := h.tel.start(ctx, mcpcore.CallInfo{Kind: "completion", Name: "x"})
	if c != nil || got != ctx {
		t.Errorf("Start = %v, %v; want ctx, nil", got, c)
	}
	c.End(mcpcore.CallOutcome{})
}

// TestSession records mcp.server.session.duration with its attributes; a
// normal close has no error.type.
func TestSession(t *testing.T) {
	h := newHarness(t)
	h.tel.StartSession(mcpcore.SessionInfo{Transport: "stdio", ProtocolVersion: "2025-06-18"}).End(context.Canceled)
	h.tel.StartSession(mcpcore.SessionInfo{Transport: "http"}).End(mcperr.Timeout("slow"))
	h.tel.StartSession(mcpcore.SessionInfo{Transport: "http"}).End(errors.New("connection reset"))
	s := h.tel.StartSession(mcpcore.SessionInfo{Transport: "stdio"})
	s.End(nil)
	s.End(errors.New("twice")) // ignored
	want := map[string]string{
		"mcp.protocol.version=2025-06-18,network.transport=pipe":              "n=1",
		"network.transport=pipe":                                              "n=1",
		"error.type=Timeout,network.protocol.name=http,network.transport=tcp": "n=1",
		"error.type=_OTHER,network.protocol.name=http,network.transport=tcp":  "n=1",
	}
	if got := h.points(t)["mcp.server.session.duration"]; !reflect.DeepEqual(got, want) {
		t.Errorf("mcp.server.session.duration:\ngot  %v\nwant %v", got, want)
	}
}

// TestSafeURI: what may carry credentials or personal data is dropped from
// a resource's URI before it is recorded.
func TestSafeURI(t *testing.T) {
	for in, want := range map[string]string{
		"articles://host/123":                          "articles://host/123",
		"file:///etc/hosts":                            "file:///etc/hosts",
		"https://u:p@api.example.com/x?token=t#frag":   "https://api.example.com/x",
		"notes://x/%zz?password=hunter2":               "notes://x/%zz",
		"weird://a b@c?d":                              "weird://a b@c",
		"db://h/q?password=hunter2&x=1#token=abcdefgh": "db://h/q",
		// A token in the path is scrubbed too.
		"articles://items/ghp_abcdefghijklmnopqrstuvwxyz0123456789": "articles://items/[REDACTED]",
		"articles://items/token=abc123secret":                       "articles://items/token=[REDACTED]",
	} {
		if got := safeURI(in); got != want {
			t.Errorf("safeURI(%q) = %q, want %q", in, got, want)
		}
	}
}
