package otelsdk

import (
	"context"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// TestNoEnvIsNoop: with no OTEL_* variable set, or none asking for an
// exporter, nothing is built.
func TestNoEnvIsNoop(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"unset":        {},
		"none":         {"OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none"},
		"none wins":    {"OTEL_TRACES_EXPORTER": "console,none"},
		"sdk disabled": {"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "console", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"},
		"service name": {"OTEL_SERVICE_NAME": "svc"},
	} {
		t.Run(name, func(t *testing.T) {
			p, tel := built(t, Config{ServiceName: "articles", Env: envOf(env)})
			if p.Built() || p.Tracer != nil || p.Meter != nil || tel != nil {
				t.Errorf("built %+v; want nothing", p)
			}
			if err := p.Shutdown(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestBadEnv: an exporter or protocol the package cannot serve fails New,
// rather than turning telemetry off without a word.
func TestBadEnv(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"unknown exporter": {"OTEL_TRACES_EXPORTER": "zipkin"},
		"metrics typo":     {"OTEL_METRICS_EXPORTER": "consol"},
		"grpc":             {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
		"grpc per signal":  {"OTEL_METRICS_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "grpc"},
		"implied grpc":     {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(Config{OTLP: newFakeOTLP(), Env: envOf(env)})
			if err == nil {
				t.Error("New succeeded")
			} else if strings.Contains(err.Error(), errNoOTLP.Error()) {
				t.Errorf("New failed for want of exporters, not for the setting: %v", err)
			}
		})
	}
}

// TestConsole: OTEL_*_EXPORTER=console writes spans and metrics to the
// Console writer, and Shutdown flushes them: the batch has not been written
// before it.
func TestConsole(t *testing.T) {
	var out wiretest.LogBuffer
	p, tel := built(t, Config{ServiceName: "articles", ServiceVersion: "1.2.3", Console: &out, Env: envOf(map[string]string{
		"OTEL_TRACES_EXPORTER":  "console",
		"OTEL_METRICS_EXPORTER": "console",
	})})
	if p.Tracer == nil || p.Meter == nil || tel == nil {
		t.Fatalf("built %+v; want both providers", p)
	}
	_, c := tel.StartCall(context.Background(), toolCall)
	c.End(notFound)
	if s := out.String(); strings.Contains(s, "tools/call fetch_articles") {
		t.Fatalf("the span was written before Shutdown; the test cannot show the flush:\n%s", s)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		`"Name":"tools/call fetch_articles"`,
		`"SpanKind":2`, // server
		`"Description":"None of 2 PMIDs returned data"`,
		`"mcp.tool.calls"`,
		`"mcp.errors.classified"`,
		`"mcp.server.operation.duration"`,
		`"Value":"articles"`, // service.name
		`"Value":"1.2.3"`,    // service.version
		`"Key":"exception.message","Value":{"Type":"STRING","Value":"None of 2 PMIDs returned data"}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("console output lacks %s", want)
		}
	}
	if strings.Contains(s, "s3cr3t") {
		t.Error("the console output holds the secret of the cause")
	}
	if t.Failed() {
		t.Logf("console output:\n%s", s)
	}
}

// TestServiceNameFromEnv: OTEL_SERVICE_NAME takes the place of the
// server's name.
func TestServiceNameFromEnv(t *testing.T) {
	var out wiretest.LogBuffer
	p, tel := built(t, Config{ServiceName: "articles", Console: &out, Env: envOf(map[string]string{
		"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "articles-prod",
	})})
	_, c := tel.StartCall(context.Background(), toolCall)
	c.End(mcpcore.CallOutcome{})
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, `"Value":"articles-prod"`) || strings.Contains(s, `"Value":"articles"`) {
		t.Errorf("service.name is not OTEL_SERVICE_NAME:\n%s", s)
	}
}

// TestSkippedSignals: a signal whose provider the program gives is left
// alone: its variables may be meant for another SDK, and are not even
// checked.
func TestSkippedSignals(t *testing.T) {
	p, err := New(Config{SkipTraces: true, SkipMetrics: true, Env: envOf(map[string]string{
		"OTEL_TRACES_EXPORTER": "zipkin", "OTEL_METRICS_EXPORTER": "console",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if p.Built() {
		t.Errorf("built %+v for skipped signals", p)
	}
}
