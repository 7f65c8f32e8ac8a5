package otelsdk

import (
	"context"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// fakeOTLP stands for the exporters of package mcpcore/otlp (a module of
// its own, which this one does not require): it records the endpoint and
// headers each signal's exporter is made with, and its exporters write
// what they export to a buffer of the signal.
type fakeOTLP struct {
	mu       sync.Mutex
	endpoint map[string]string
	headers  map[string]map[string]string
	out      map[string]*wiretest.LogBuffer
}

func newFakeOTLP() *fakeOTLP {
	return &fakeOTLP{endpoint: map[string]string{}, headers: map[string]map[string]string{},
		out: map[string]*wiretest.LogBuffer{"traces": {}, "metrics": {}}}
}

func (f *fakeOTLP) made(signal, endpoint string, headers map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.endpoint[signal], f.headers[signal] = endpoint, headers
}

func (f *fakeOTLP) Traces(endpoint string, headers map[string]string) (sdktrace.SpanExporter, error) {
	f.made("traces", endpoint, headers)
	return stdouttrace.New(stdouttrace.WithWriter(f.out["traces"]))
}

func (f *fakeOTLP) Metrics(endpoint string, headers map[string]string) (sdkmetric.Exporter, error) {
	f.made("metrics", endpoint, headers)
	return stdoutmetric.New(stdoutmetric.WithWriter(f.out["metrics"]))
}

// TestNoOTLP: a program without OTLP exporters that asks for them is told
// how to get them, at start.
func TestNoOTLP(t *testing.T) {
	for _, env := range []map[string]string{
		{"OTEL_TRACES_EXPORTER": "otlp"},
		{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://127.0.0.1:4318/v1/metrics"},
	} {
		_, err := New(Config{Env: envOf(env)})
		if err == nil || !strings.Contains(err.Error(), "set app.Options.OTLP to otlp.HTTP{} of package github.com/seed417024ea/mcpcore/otlp") {
			t.Errorf("%v: error = %v", env, err)
		}
	}
}

// TestOTLP: an OTLP endpoint alone selects OTLP for both signals, each
// made with its path under the endpoint and the headers of
// OTEL_EXPORTER_OTLP_HEADERS, and Shutdown sends what is pending.
func TestOTLP(t *testing.T) {
	otlp := newFakeOTLP()
	p, tel := built(t, Config{ServiceName: "articles", OTLP: otlp, Env: envOf(map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/",
		"OTEL_EXPORTER_OTLP_HEADERS":  "x-api-key=a%20b, broken",
	})})
	_, c := tel.StartCall(context.Background(), resourceCall)
	c.End(mcpcore.CallOutcome{OutputBytes: 3})
	for _, signal := range []string{"traces", "metrics"} {
		if n := len(otlp.out[signal].String()); n != 0 {
			t.Errorf("%s: %d bytes exported before Shutdown; want them batched", signal, n)
		}
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, signal := range []string{"traces", "metrics"} {
		if want := "http://collector:4318/v1/" + signal; otlp.endpoint[signal] != want {
			t.Errorf("%s: endpoint %q, want %q", signal, otlp.endpoint[signal], want)
		}
		if h := otlp.headers[signal]; len(h) != 1 || h["x-api-key"] != "a b" {
			t.Errorf("%s: headers %v, want x-api-key: a b", signal, h)
		}
		if len(otlp.out[signal].String()) == 0 {
			t.Errorf("%s: nothing exported by Shutdown", signal)
		}
	}
}

// TestOTLPSignalEndpoint: a signal's own endpoint is used as it is, and
// selects OTLP for that signal only.
func TestOTLPSignalEndpoint(t *testing.T) {
	otlp := newFakeOTLP()
	p, err := New(Config{OTLP: otlp, Env: envOf(map[string]string{
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/collect/spans",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if p.Tracer == nil || p.Meter != nil {
		t.Errorf("built %+v; want traces only", p)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if otlp.endpoint["traces"] != "http://collector:4318/collect/spans" {
		t.Errorf("traces endpoint %q", otlp.endpoint["traces"])
	}
	if _, ok := otlp.endpoint["metrics"]; ok {
		t.Error("a metrics exporter was made")
	}
}
