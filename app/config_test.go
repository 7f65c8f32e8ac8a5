package app_test

import (
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcphttp"
)

// configOf returns the Config the environment m gives.
func configOf(t testing.TB, m map[string]string) app.Config {
	t.Helper()
	c, err := app.ConfigFromEnv(func(k string) string { return m[k] })
	if err != nil {
		t.Fatalf("ConfigFromEnv(%v): %v", m, err)
	}
	return c
}

// TestConfigFromEnvNamesEachBadVariable: every value ConfigFromEnv cannot
// use is a ConfigurationError that names its variable and what it takes.
func TestConfigFromEnvNamesEachBadVariable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MCP_TRANSPORT_TYPE": "carrier-pigeon"}, `MCP_TRANSPORT_TYPE="carrier-pigeon": want stdio or http`},
		{map[string]string{"MCP_HTTP_PORT": "http"}, `MCP_HTTP_PORT="http": want a port number`},
		{map[string]string{"MCP_HTTP_PORT": "65536"}, `MCP_HTTP_PORT="65536": want a port number`},
		{map[string]string{"MCP_SESSION_MODE": "sometimes"}, `MCP_SESSION_MODE="sometimes": want stateful or stateless`},
		{map[string]string{"MCP_LOG_LEVEL": "loud"}, `MCP_LOG_LEVEL="loud": want debug, info`},
		{map[string]string{"MCP_LOG_FORMAT": "xml"}, `MCP_LOG_FORMAT="xml": want text or json`},
		{map[string]string{"MCP_ALLOWED_ORIGINS": "not a url"}, `MCP_ALLOWED_ORIGINS`},
		{map[string]string{"MCP_MAX_RESULT_BYTES": "big"}, `MCP_MAX_RESULT_BYTES="big": want a whole number above zero`},
		{map[string]string{"MCP_MAX_CALLS_IN_FLIGHT": "-1"}, `MCP_MAX_CALLS_IN_FLIGHT="-1": want a whole number above zero`},
		{map[string]string{"MCP_MAX_CALLS_PER_SESSION": "0"}, `MCP_MAX_CALLS_PER_SESSION="0": want a whole number above zero`},
		{map[string]string{"MCP_HTTP_MAX_BODY_BYTES": "4MiB"}, `MCP_HTTP_MAX_BODY_BYTES="4MiB": want a whole number above zero`},
		{map[string]string{"MCP_HTTP_MAX_SESSIONS": "0"}, `MCP_HTTP_MAX_SESSIONS="0": want a whole number above zero`},
		{map[string]string{"MCP_HTTP_MAX_SESSIONS_PER_SUBJECT": "none"}, `MCP_HTTP_MAX_SESSIONS_PER_SUBJECT="none": want a whole number above zero`},
		{map[string]string{"MCP_SESSION_IDLE_TIMEOUT": "30"}, `MCP_SESSION_IDLE_TIMEOUT="30": want a positive duration`},
		{map[string]string{"MCP_AUTH_MODE": "basic"}, `MCP_AUTH_MODE="basic": want none, jwt or oauth`},
		{map[string]string{"MCP_AUTH_ALLOW_UNAUTHENTICATED": "maybe"}, `MCP_AUTH_ALLOW_UNAUTHENTICATED="maybe": want true or false`},
		{map[string]string{"MCP_AUTH_MODE": "jwt"}, `MCP_AUTH_MODE=jwt needs MCP_AUTH_SECRET_KEY`},
		{map[string]string{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": "hunter2hunter2"}, `MCP_AUTH_SECRET_KEY has 14 characters; it needs at least 32`},
		{map[string]string{"MCP_AUTH_MODE": "oauth", "OAUTH_AUDIENCE": "x"}, `MCP_AUTH_MODE=oauth needs OAUTH_ISSUER_URL`},
		{map[string]string{"MCP_AUTH_MODE": "oauth", "OAUTH_ISSUER_URL": "https://id.example.com"}, `MCP_AUTH_MODE=oauth needs OAUTH_AUDIENCE`},
		{map[string]string{"OAUTH_JWKS_URI": "keys"}, `OAUTH_JWKS_URI="keys": want an absolute http(s) URL`},
		{map[string]string{"MCP_SERVER_RESOURCE_IDENTIFIER": "/mcp"}, `MCP_SERVER_RESOURCE_IDENTIFIER="/mcp": want an absolute http(s) URL`},
		{map[string]string{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0"}, `MCP_AUTH_ALLOW_UNAUTHENTICATED=true`},
	} {
		_, err := app.ConfigFromEnv(func(k string) string { return tc.env[k] })
		var e *mcperr.Error
		if !errors.As(err, &e) || e.Code() != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ConfigFromEnv(%v) = %v, want a ConfigurationError containing %q", tc.env, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
	// Every problem at once, so that a deployment is fixed in one round.
	_, err := app.ConfigFromEnv(func(k string) string {
		return map[string]string{"MCP_LOG_LEVEL": "loud", "MCP_HTTP_PORT": "http", "MCP_AUTH_MODE": "jwt"}[k]
	})
	for _, want := range []string{"MCP_LOG_LEVEL", "MCP_HTTP_PORT", "MCP_AUTH_MODE=jwt needs"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %s", err, want)
		}
	}
}

// TestConfigFromEnvReadsEveryVariable: each variable lands in its field,
// and an empty environment is the zero Config, the defaults.
func TestConfigFromEnvReadsEveryVariable(t *testing.T) {
	t.Parallel()
	if c := configOf(t, nil); !reflect.DeepEqual(c, app.Config{}) {
		t.Errorf("ConfigFromEnv(empty) = %+v, want the zero Config", c)
	}
	got := configOf(t, map[string]string{
		"MCP_REDIS_URL": "redis://:r3dis-pass@10.0.0.5:6379/0", "MCP_RATE_LIMIT": "10/s",
		"MCP_SECRET_VARS": "NOTES_API_KEY", "NOTES_API_KEY": "nk_live_4f9Qm2Zx",
		"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0", "MCP_HTTP_PORT": "0", "MCP_SESSION_MODE": "stateless",
		"MCP_LOG_LEVEL": "notice", "MCP_LOG_FORMAT": "json", "MCP_ALLOWED_ORIGINS": "https://app.example.com",
		"MCP_MAX_RESULT_BYTES": "1", "MCP_MAX_CALLS_IN_FLIGHT": "2", "MCP_MAX_CALLS_PER_SESSION": "3",
		"MCP_HTTP_MAX_BODY_BYTES": "4", "MCP_HTTP_MAX_SESSIONS": "5", "MCP_HTTP_MAX_SESSIONS_PER_SUBJECT": "6",
		"MCP_SESSION_IDLE_TIMEOUT": "7s",
		"MCP_AUTH_MODE":            "oauth", "OAUTH_ISSUER_URL": "https://id.example.com", "OAUTH_AUDIENCE": "aud",
		"OAUTH_JWKS_URI": "https://id.example.com/keys", "MCP_SERVER_RESOURCE_IDENTIFIER": "https://mcp.example.com/mcp",
		"MCP_AUTH_REQUIRED_SCOPES": "a b", "MCP_AUTH_ALLOW_UNAUTHENTICATED": "true",
		"MCP_AUTH_SECRET_KEY": "s", "MCP_AUTH_PUBLIC_KEY": "p",
		"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "console", "OTEL_METRICS_EXPORTER": "none",
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://m",
		"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "tp", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "mp",
		"OTEL_EXPORTER_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=%202", "OTEL_EXPORTER_OTLP_METRICS_HEADERS": "c=3",
		"OTEL_SERVICE_NAME": "svc",
	})
	want := app.Config{Config: mcpcore.Config{
		Stateless: true,
		LogLevel:  mcpcore.LevelNotice, LogJSON: true, AllowedOrigins: []string{"https://app.example.com"},
		MaxResultBytes: 1, MaxCallsInFlight: 2, MaxCallsPerSession: 3, MaxBodyBytes: 4, MaxSessions: 5, MaxSessionsPerSubject: 6,
		SessionIdleTimeout: 7 * time.Second,
		RateLimit:          mcpcore.RateLimit{Calls: 10, Per: time.Second},
	},
		Transport: app.TransportHTTP, HTTPHost: "0.0.0.0", HTTPPort: app.AnyPort, AllowUnauthenticated: true,
		Auth: mcphttp.AuthConfig{Mode: mcphttp.AuthOAuth, SecretKey: "s", PublicKey: "p",
			Issuer: "https://id.example.com", Audience: "aud", JWKSURI: "https://id.example.com/keys",
			ResourceIdentifier: "https://mcp.example.com/mcp", RequiredScopes: []string{"a", "b"}},
		RedisURL: "redis://:r3dis-pass@10.0.0.5:6379/0", Secrets: []string{"nk_live_4f9Qm2Zx"},
		Telemetry: app.TelemetryConfig{Disabled: true, TracesExporter: "console", MetricsExporter: "none",
			Endpoint: "http://c:4318", TracesEndpoint: "http://t", MetricsEndpoint: "http://m",
			Protocol: "http/protobuf", TracesProtocol: "tp", MetricsProtocol: "mp",
			Headers: map[string]string{"a": "1"}, TracesHeaders: map[string]string{"b": " 2"}, MetricsHeaders: map[string]string{"c": "3"},
			ServiceName: "svc"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ConfigFromEnv() =\n%+v\nwant\n%+v", got, want)
	}
}

// newApp builds an app for defs that logs to the test's log, or fails
// the test.
func newApp(t testing.TB, cfg app.Config, opts *app.Options, defs ...mcpcore.Definition) *app.App {
	t.Helper()
	var o app.Options
	if opts != nil {
		o = *opts
	}
	var so mcpcore.ServerOptions
	if o.Server != nil {
		so = *o.Server
	}
	if so.Logger == nil {
		so.Logger = slog.New(mcpcore.NewLogHandler(t.Output(), &mcpcore.LogOptions{Level: slog.LevelDebug}))
	}
	o.Server = &so
	a, err := app.New(mcpcore.Info{Name: "test-server", Version: "0.0.1"}, cfg, &o, defs...)
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	return a
}
