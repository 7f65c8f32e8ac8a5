package telemetry

import (
	"context"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/internal/config"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestNoEnvIsNoop: with no OTEL_* variable set, nothing is built: Start
// returns its context and a nil Call, and Shutdown has nothing to stop.
func TestNoEnvIsNoop(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"unset":        {},
		"none":         {"OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none"},
		"none wins":    {"OTEL_TRACES_EXPORTER": "console,none"},
		"sdk disabled": {"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "console", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"},
		"service name": {"OTEL_SERVICE_NAME": "svc"},
	} {
		t.Run(name, func(t *testing.T) {
			tel, err := New(Config{ServiceName: "articles", Env: envOf(env)})
			if err != nil {
				t.Fatal(err)
			}
			if tel.Enabled() || tel.shutdown != nil {
				t.Errorf("Enabled = %v, %d providers built; want none", tel.Enabled(), len(tel.shutdown))
			}
			ctx := context.Background()
			got, c := tel.Start(ctx, toolCall)
			if got != ctx || c != nil {
				t.Errorf("Start = %v, %v; want ctx, nil", got, c)
			}
			c.End(notFound)
			tel.StartSession("stdio").End("", nil)
			if err := tel.Shutdown(ctx); err != nil {
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
	tel, err := New(Config{ServiceName: "articles", ServiceVersion: "1.2.3", Console: &out, Env: envOf(map[string]string{
		"OTEL_TRACES_EXPORTER":  "console",
		"OTEL_METRICS_EXPORTER": "console",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if !tel.Enabled() || len(tel.shutdown) != 2 {
		t.Fatalf("Enabled = %v with %d providers; want 2 built", tel.Enabled(), len(tel.shutdown))
	}
	_, c := tel.Start(context.Background(), toolCall)
	c.End(notFound)
	if s := out.String(); strings.Contains(s, "tools/call fetch_articles") {
		t.Fatalf("the span was written before Shutdown; the test cannot show the flush:\n%s", s)
	}
	if err := tel.Shutdown(context.Background()); err != nil {
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
	tel, err := New(Config{ServiceName: "articles", Console: &out, Env: envOf(map[string]string{
		"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "articles-prod",
	})})
	if err != nil {
		t.Fatal(err)
	}
	_, c := tel.Start(context.Background(), toolCall)
	c.End(Outcome{})
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, `"Value":"articles-prod"`) || strings.Contains(s, `"Value":"articles"`) {
		t.Errorf("service.name is not OTEL_SERVICE_NAME:\n%s", s)
	}
}

// TestCallerProviders: providers the caller gives are used, the
// environment is not read for them, and Shutdown leaves them running.
func TestCallerProviders(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	// The variables may be meant for another SDK: they are not read, not
	// even checked.
	tel, err := New(Config{MeterProvider: mp, TracerProvider: tp, Env: envOf(map[string]string{
		"OTEL_TRACES_EXPORTER": "zipkin", "OTEL_METRICS_EXPORTER": "console",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if len(tel.shutdown) != 0 {
		t.Errorf("%d providers built beside the caller's", len(tel.shutdown))
	}
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, c := tel.Start(context.Background(), toolCall)
	c.End(Outcome{})
	if len(spans.Ended()) != 1 {
		t.Error("the caller's tracer provider was shut down or not used")
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil || len(rm.ScopeMetrics) == 0 {
		t.Errorf("the caller's meter provider was shut down or not used: %v", err)
	}
}

// TestReadsTheVariables checks that the telemetry reads the OTEL_*
// variables of config.Variables, the documentation's table, and no other.
func TestReadsTheVariables(t *testing.T) {
	var mu sync.Mutex
	read := map[string]bool{}
	for _, m := range []map[string]string{
		nil,
		{"OTEL_SDK_DISABLED": "true"},
		{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_METRICS_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SERVICE_NAME": "s"},
		{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://127.0.0.1:4318/v1/metrics"},
	} {
		tel, err := New(Config{Console: io.Discard, OTLP: newFakeOTLP(), Env: ReadEnv(func(name string) string {
			mu.Lock()
			defer mu.Unlock()
			read[name] = true
			return m[name]
		})})
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		tel.Shutdown(ctx)
		cancel()
	}
	var want []string
	for _, v := range config.Variables {
		if strings.HasPrefix(v.Name, "OTEL_") {
			want = append(want, v.Name)
		}
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(read)); !slices.Equal(got, want) {
		t.Errorf("the telemetry reads %v\nconfig.Variables list %v", got, want)
	}
}
