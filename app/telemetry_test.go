package app_test

import (
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TestOTLPNeedsItsExporters: an app given no OTLP exporters that is asked
// for OTLP refuses to start, and says what to set.
func TestOTLPNeedsItsExporters(t *testing.T) {
	t.Parallel()
	for _, env := range []map[string]string{
		{"OTEL_TRACES_EXPORTER": "otlp"},
		{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://127.0.0.1:4318/v1/metrics"},
	} {
		_, err := app.New(mcpcore.Info{Name: "x"}, configOf(t, env), nil, efetchTool)
		if mcperr.CodeOf(err) != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), "set app.Options.OTLP to otlp.HTTP{} of package github.com/seed417024ea/mcpcore/otlp") {
			t.Errorf("%v: New: %v", env, err)
		}
	}
}
