package telemetry

import (
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/otlpexport"
)

// The tests of this package run with the exporters that package
// mcpcore/otlp installs, but for TestNoOTLP.
func init() {
	OTLPTraces, OTLPMetrics = otlpexport.Traces, otlpexport.Metrics
}

// TestNoOTLP: a program without the OTLP exporters that asks for them is
// told how to get them, at start.
func TestNoOTLP(t *testing.T) {
	traces, metrics := OTLPTraces, OTLPMetrics
	OTLPTraces, OTLPMetrics = nil, nil
	defer func() { OTLPTraces, OTLPMetrics = traces, metrics }()
	for _, env := range []map[string]string{
		{"OTEL_TRACES_EXPORTER": "otlp"},
		{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://127.0.0.1:4318/v1/metrics"},
	} {
		_, err := New(Config{Env: envOf(env)})
		if err == nil || !strings.Contains(err.Error(), `add import _ "github.com/seed417024ea/mcpcore/otlp"`) {
			t.Errorf("%v: error = %v", env, err)
		}
	}
}
