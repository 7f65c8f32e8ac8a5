package main

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpotel"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// TestObservabilityOfEveryBranch is the seed's invariant on the reference
// server: for each branch, the failure record's level, the span's status
// and error.type, and the error counter's category are what the table
// says, read through an in-memory log handler, span recorder and metric
// reader.
func TestObservabilityOfEveryBranch(t *testing.T) {
	for _, tc := range []struct {
		name     string
		call     func(*testing.T, *mcptest.Client)
		op       string // kind:name
		level    string // of the failure record; "" for none
		errType  string // the span's error.type; "" for a success
		category string // the error counter's attribute; "" for none
	}{
		{"success", tool("fetch_articles", map[string]any{"pmids": []string{"1"}}), "tool:fetch_articles", "", "", ""},
		{"no_match", tool("fetch_articles", map[string]any{"pmids": []string{}}), "tool:fetch_articles", "ERROR", "NotFound", "NotFound"},
		{"queue_full", tool("fetch_articles", map[string]any{"pmids": []string{"queue_full"}}), "tool:fetch_articles", "ERROR", "RateLimited", "RateLimited"},
		{"ncbi_down", tool("fetch_articles", map[string]any{"pmids": []string{"ncbi_down"}}), "tool:fetch_articles", "ERROR", "ServiceUnavailable", "ServiceUnavailable"},
		{"declared notice", tool("notice_tool", map[string]any{}), "tool:notice_tool", "NOTICE", "ValidationError", "ValidationError"},
		{"plain error", tool("fetch_articles", map[string]any{"pmids": []string{"plain"}}), "tool:fetch_articles", "ERROR", "NotFound", "NotFound"},
		{"factory with data", tool("fetch_articles", map[string]any{"pmids": []string{"data"}}), "tool:fetch_articles", "ERROR", "NotFound", "NotFound"},
		{"panic", tool("fetch_articles", map[string]any{"pmids": []string{"panic"}}), "tool:fetch_articles", "ERROR", "InternalError", "InternalError"},
		{"invalid input", tool("fetch_articles", map[string]any{"pmids": []int{1}}), "tool:fetch_articles", "NOTICE", "ValidationError", "ValidationError"},
		{"cancellation", callCancelled, "tool:fetch_articles", "INFO", "RequestCancelled", "RequestCancelled"},
		{"unknown pmid", tool("summarize_abstract", map[string]any{"pmid": "1"}), "tool:summarize_abstract", "ERROR", "NotFound", "NotFound"},
		{"missing client capability", func(_ *testing.T, c *mcptest.Client) {
			c.Call("summarize_abstract", map[string]any{"pmid": "31000001"}, nil) // a JSON-RPC error
		}, "tool:summarize_abstract", "WARN", "MissingClientCapability", "MissingClientCapability"},
		{"unknown pmid to retract", tool("retract_article", map[string]any{"pmid": "1"}), "tool:retract_article", "ERROR", "NotFound", "NotFound"},
		{"resource not found", func(_ *testing.T, c *mcptest.Client) {
			c.ReadResource("articles://items/missing") // a JSON-RPC error
		}, "resource:item", "ERROR", "NotFound", "NotFound"},
		{"prompt failure", func(_ *testing.T, c *mcptest.Client) {
			c.GetPrompt("summarize_article", map[string]string{}) // a JSON-RPC error
		}, "prompt:summarize_article", "NOTICE", "ValidationError", "ValidationError"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reader, spans := sdkmetric.NewManualReader(), tracetest.NewSpanRecorder()
			obs, err := mcpotel.New(mcpotel.Options{
				MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
				TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
			})
			if err != nil {
				t.Fatal(err)
			}
			c := mcptest.StartWith(t, info, &mcptest.Options{Server: &mcpcore.ServerOptions{Observer: obs}}, definitions()...)
			tc.call(t, c)
			c.WaitFor("the call's span", func() bool { return len(spans.Ended()) == 1 })

			var level string
			for _, r := range c.Logs().Find("Error in " + tc.op + ": ") {
				level, _ = r["level"].(string)
			}
			if level != tc.level {
				t.Errorf("failure record level %q, want %q", level, tc.level)
			}

			sp := spans.Ended()[0]
			var errType string
			for _, a := range sp.Attributes() {
				if a.Key == "error.type" {
					errType = a.Value.AsString()
				}
			}
			if errType != tc.errType || (sp.Status().Code == codes.Error) != (tc.errType != "") {
				t.Errorf("span %s: status %v, error.type %q; want error.type %q", sp.Name(), sp.Status(), errType, tc.errType)
			}

			var rm metricdata.ResourceMetrics
			if err := reader.Collect(context.Background(), &rm); err != nil {
				t.Fatal(err)
			}
			kind, _, _ := strings.Cut(tc.op, ":")
			var category string
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					if m.Name != "mcp."+kind+".errors" {
						continue
					}
					for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
						v, _ := p.Attributes.Value(attribute.Key("mcp." + kind + ".error_category"))
						category = v.AsString()
					}
				}
			}
			if category != tc.category {
				t.Errorf("mcp.%s.errors category %q, want %q", kind, category, tc.category)
			}
		})
	}
}

// tool calls a tool; its failure is a result.
func tool(name string, args map[string]any) func(*testing.T, *mcptest.Client) {
	return func(_ *testing.T, c *mcptest.Client) { c.CallTool(name, args) }
}
