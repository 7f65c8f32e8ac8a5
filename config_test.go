package mcpcore_test

import (
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TestNewServerReadsNoEnvironment: a process environment full of values a
// server could not run with does not reach NewServer; only
// app.ConfigFromEnv reads it.
func TestNewServerReadsNoEnvironment(t *testing.T) {
	for k, v := range map[string]string{
		"MCP_TRANSPORT_TYPE": "carrier-pigeon", "MCP_HTTP_PORT": "http", "MCP_SESSION_MODE": "sometimes",
		"MCP_LOG_LEVEL": "loud", "MCP_LOG_FORMAT": "xml", "MCP_ALLOWED_ORIGINS": "not a url",
		"MCP_MAX_RESULT_BYTES": "big", "MCP_HTTP_MAX_SESSIONS": "0", "MCP_SESSION_IDLE_TIMEOUT": "30",
		"MCP_AUTH_MODE": "basic", "OAUTH_ISSUER_URL": "id.example.com",
		"OTEL_TRACES_EXPORTER": "bogus", "OTEL_METRICS_EXPORTER": "bogus", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
	} {
		t.Setenv(k, v)
	}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, nil, renderTool)
	if err != nil {
		t.Fatalf("NewServer read the environment: %v", err)
	}
	if err := srv.Shutdown(t.Context()); err != nil {
		t.Error(err)
	}
	if _, err := app.ConfigFromEnv(nil); err == nil {
		t.Error("app.ConfigFromEnv(nil) did not read the process environment")
	}
}

// TestNewServerRefusesBadConfig: a Config given as Go values is checked as
// the environment's is.
func TestNewServerRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  mcpcore.Config
		want string
	}{
		{mcpcore.Config{StateKeys: []string{"short"}}, "MCP_STATE_KEYS"},
		{mcpcore.Config{AllowedOrigins: []string{"not a url"}}, "MCP_ALLOWED_ORIGINS"},
	} {
		_, err := mcpcore.NewServer(mcpcore.Info{Name: "cfg"}, &mcpcore.ServerOptions{Config: tc.cfg}, renderTool)
		if mcperr.CodeOf(err) != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewServer(%+v) = %v, want a ConfigurationError naming %s", tc.cfg, err, tc.want)
		}
	}
}

// TestConfigCheck: every setting a server cannot run with is reported at
// once, in the words ConfigFromEnv gives the environment, and never with
// a key.
func TestConfigCheck(t *testing.T) {
	t.Parallel()
	good := strings.Repeat("k", 32)
	if err := (mcpcore.Config{}).Check(); err != nil {
		t.Errorf("Config{}.Check() = %v", err)
	}
	if err := (mcpcore.Config{StateKeys: []string{good, strings.Repeat("o", 32)}, RateLimit: mcpcore.RateLimit{Calls: 1, Per: time.Second},
		AllowedOrigins: []string{"https://app.example.com"}}).Check(); err != nil {
		t.Errorf("Check() of good settings = %v", err)
	}
	err := mcpcore.Config{
		StateKeys: []string{good, "short-key", good},
		RateLimit: mcpcore.RateLimit{Calls: 0, Per: time.Second},
	}.Check()
	want := "MCP_STATE_KEYS: key 2 of 3 has 9 characters; each needs at least 32\n" +
		"MCP_STATE_KEYS: key 3 of 3 repeats key 1\n" +
		"MCP_RATE_LIMIT: a rate limit needs at least 1 call per a positive duration, not 0 per 1s"
	if err == nil || err.Error() != want {
		t.Errorf("Check() = %v\nwant %s", err, want)
	}
	if err != nil && strings.Contains(err.Error(), "short-key") {
		t.Errorf("the error shows a key: %v", err)
	}
}
