package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// TestObservabilityOfEveryBranch is the seed's invariant on the reference
// server: for each branch, the failure record's level, the span's status
// and error.type, and the error counter's category are what the table
// says, read through an in-memory log handler, span recorder and metric
// reader.
func TestObservabilityOfEveryBranch(t *testing.T) {
	for _, tc := range []struct {
		name     string
		call     func(context.Context, *mcp.ClientSession, *wiretest.LogBuffer) error
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
		{"invalid input", tool("fetch_articles", map[string]any{"pmids": []int{1}}), "tool:fetch_articles", "ERROR", "ValidationError", "ValidationError"},
		{"cancellation", cancelled, "tool:fetch_articles", "INFO", "RequestCancelled", "RequestCancelled"},
		{"unknown pmid", tool("summarize_abstract", map[string]any{"pmid": "1"}), "tool:summarize_abstract", "ERROR", "NotFound", "NotFound"},
		{"missing client capability", func(ctx context.Context, cs *mcp.ClientSession, _ *wiretest.LogBuffer) error {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "summarize_abstract", Arguments: map[string]any{"pmid": "31000001"}})
			return ignore(err)
		}, "tool:summarize_abstract", "WARN", "MissingClientCapability", "MissingClientCapability"},
		{"unknown pmid to retract", tool("retract_article", map[string]any{"pmid": "1"}), "tool:retract_article", "ERROR", "NotFound", "NotFound"},
		{"resource not found", func(ctx context.Context, cs *mcp.ClientSession, _ *wiretest.LogBuffer) error {
			_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "articles://items/missing"})
			return ignore(err)
		}, "resource:item", "ERROR", "NotFound", "NotFound"},
		{"prompt failure", func(ctx context.Context, cs *mcp.ClientSession, _ *wiretest.LogBuffer) error {
			_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_article", Arguments: map[string]string{}})
			return ignore(err)
		}, "prompt:summarize_article", "ERROR", "ValidationError", "ValidationError"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &wiretest.LogBuffer{}
			reader, spans := sdkmetric.NewManualReader(), tracetest.NewSpanRecorder()
			srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{
				Logger:         slog.New(mcpcore.NewLogHandler(logs, slog.LevelDebug, true)),
				Getenv:         func(string) string { return "" },
				MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
				TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
			}, definitions()...)
			if err != nil {
				t.Fatal(err)
			}
			cs := wiretest.Connect(t, srv.MCPServer())
			if err := tc.call(context.Background(), cs, logs); err != nil {
				t.Fatal(err)
			}
			wiretest.WaitFor(t, "the call's span", func() bool { return len(spans.Ended()) == 1 })

			var level string
			for _, r := range logs.Records(t) {
				if strings.HasPrefix(r["msg"].(string), "Error in "+tc.op+": ") {
					level, _ = r["level"].(string)
				}
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

func tool(name string, args map[string]any) func(context.Context, *mcp.ClientSession, *wiretest.LogBuffer) error {
	return func(ctx context.Context, cs *mcp.ClientSession, _ *wiretest.LogBuffer) error {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		return err
	}
}

// cancelled calls the slow branch and cancels it once its handler runs.
func cancelled(ctx context.Context, cs *mcp.ClientSession, logs *wiretest.LogBuffer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fetch_articles", Arguments: map[string]any{"pmids": []string{"slow"}}})
		done <- err
	}()
	deadline := time.After(10 * time.Second)
	for !strings.Contains(logs.String(), "slow: waiting") {
		select {
		case err := <-done:
			return err
		case <-deadline:
			return errors.New("the slow handler never ran")
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// ignore drops the protocol error a resource or prompt failure is, or a
// tool's missing client capability.
func ignore(error) error { return nil }
