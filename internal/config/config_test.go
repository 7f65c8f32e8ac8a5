package config

import (
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/internal/level"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, err := FromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Transport: Stdio, HTTPHost: "127.0.0.1", HTTPPort: 3010, Stateless: false, LogLevel: slog.LevelInfo, LogJSON: false,
		Auth: AuthConfig{Mode: AuthNone}, MaxBodyBytes: 4 << 20, MaxSessions: 1000, MaxSessionsPerSubject: 100, MaxCallsPerSession: 64, MaxCallsInFlight: 512, SessionIdleTimeout: 30 * time.Minute, StreamKeepAlive: 15 * time.Second}
	want.MaxResultBytes = 8 << 20
	if !reflect.DeepEqual(c, want) {
		t.Errorf("FromEnv() = %+v, want %+v", c, want)
	}
	if got := c.Addr(); got != "127.0.0.1:3010" {
		t.Errorf("Addr() = %q", got)
	}
}

func TestEveryVariable(t *testing.T) {
	t.Parallel()
	c, err := FromEnv(env(map[string]string{
		"MCP_TRANSPORT_TYPE":                "http",
		"MCP_HTTP_HOST":                     "0.0.0.0",
		"MCP_HTTP_PORT":                     "8080",
		"MCP_SESSION_MODE":                  "stateless",
		"MCP_LOG_LEVEL":                     "debug",
		"MCP_LOG_FORMAT":                    "json",
		"MCP_ALLOWED_ORIGINS":               " https://app.example.com, http://localhost:5173 ,",
		"MCP_AUTH_MODE":                     "OAuth",
		"OAUTH_ISSUER_URL":                  "https://id.example.com/",
		"OAUTH_JWKS_URI":                    "https://id.example.com/keys",
		"MCP_SERVER_RESOURCE_IDENTIFIER":    "https://mcp.example.com/mcp",
		"MCP_HTTP_MAX_BODY_BYTES":           "1024",
		"MCP_HTTP_MAX_SESSIONS":             "5",
		"MCP_HTTP_MAX_SESSIONS_PER_SUBJECT": "2",
		"MCP_SESSION_IDLE_TIMEOUT":          "90s",
		"MCP_HTTP_STREAM_KEEPALIVE":         "5s",
		"MCP_MAX_CALLS_PER_SESSION":         "3",
		"MCP_MAX_RESULT_BYTES":              "4096",
		"MCP_MAX_CALLS_IN_FLIGHT":           "7",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Transport: HTTP, HTTPHost: "0.0.0.0", HTTPPort: 8080, Stateless: true, LogLevel: slog.LevelDebug, LogJSON: true,
		AllowedOrigins: []string{"https://app.example.com", "http://localhost:5173"},
		Auth: AuthConfig{Mode: AuthOAuth, Issuer: "https://id.example.com/", JWKSURI: "https://id.example.com/keys",
			Audience: "https://mcp.example.com/mcp", ResourceIdentifier: "https://mcp.example.com/mcp"},
		MaxBodyBytes: 1024, MaxSessions: 5, MaxSessionsPerSubject: 2, SessionIdleTimeout: 90 * time.Second, StreamKeepAlive: 5 * time.Second, MaxCallsPerSession: 3, MaxCallsInFlight: 7}
	want.MaxResultBytes = 4096
	if !reflect.DeepEqual(c, want) {
		t.Errorf("FromEnv() = %+v, want %+v", c, want)
	}
	if got := c.Addr(); got != "0.0.0.0:8080" {
		t.Errorf("Addr() = %q", got)
	}
}

func TestValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, value string
		check       func(Config) bool
	}{
		{"MCP_TRANSPORT_TYPE", "stdio", func(c Config) bool { return c.Transport == Stdio }},
		{"MCP_TRANSPORT_TYPE", "HTTP", func(c Config) bool { return c.Transport == HTTP }},
		{"MCP_HTTP_PORT", "0", func(c Config) bool { return c.HTTPPort == 0 }},
		{"MCP_HTTP_PORT", "65535", func(c Config) bool { return c.HTTPPort == 65535 }},
		{"MCP_HTTP_HOST", "::1", func(c Config) bool { return c.Addr() == "[::1]:3010" }},
		{"MCP_SESSION_MODE", "stateful", func(c Config) bool { return !c.Stateless }},
		{"MCP_SESSION_MODE", "auto", func(c Config) bool { return !c.Stateless }},
		{"MCP_SESSION_MODE", "Stateless", func(c Config) bool { return c.Stateless }},
		{"MCP_LOG_LEVEL", "info", func(c Config) bool { return c.LogLevel == slog.LevelInfo }},
		{"MCP_LOG_LEVEL", "notice", func(c Config) bool { return c.LogLevel == level.Notice }},
		{"MCP_LOG_LEVEL", "warning", func(c Config) bool { return c.LogLevel == slog.LevelWarn }},
		{"MCP_LOG_LEVEL", "warn", func(c Config) bool { return c.LogLevel == slog.LevelWarn }},
		{"MCP_LOG_LEVEL", "ERROR", func(c Config) bool { return c.LogLevel == slog.LevelError }},
		{"MCP_LOG_FORMAT", "text", func(c Config) bool { return !c.LogJSON }},
		{"MCP_LOG_FORMAT", "JSON", func(c Config) bool { return c.LogJSON }},
		// The share follows the cap unless it is set.
		{"MCP_HTTP_MAX_SESSIONS", "5", func(c Config) bool { return c.MaxSessionsPerSubject == 1 }},
		{"MCP_HTTP_MAX_SESSIONS", "250", func(c Config) bool { return c.MaxSessionsPerSubject == 25 }},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			c, err := FromEnv(env(map[string]string{tc.name: tc.value}))
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(c) {
				t.Errorf("FromEnv() = %+v", c)
			}
		})
	}
}

// TestResolveZero checks that the zero Config resolves to the defaults
// FromEnv gives an empty environment: the defaults are written once.
func TestResolveZero(t *testing.T) {
	t.Parallel()
	fromEnv, err := FromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	zero, err := Resolve(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(zero, fromEnv) {
		t.Errorf("Resolve(Config{}) = %+v\nFromEnv(empty) = %+v", zero, fromEnv)
	}
	if c, _ := Resolve(Config{HTTPPort: AnyPort}); c.HTTPPort != 0 {
		t.Errorf("Resolve(AnyPort).HTTPPort = %d, want 0", c.HTTPPort)
	}
	for _, c := range []Config{{HTTPPort: 70000}, {HTTPPort: -2}, {Auth: AuthConfig{Mode: "basic"}}} {
		if _, err := Resolve(c); err == nil {
			t.Errorf("Resolve(%+v) accepted it", c)
		}
	}
}

func TestBadValuesReportedTogether(t *testing.T) {
	t.Parallel()
	bad := map[string]string{
		"MCP_TRANSPORT_TYPE": "carrier-pigeon",
		"MCP_HTTP_PORT":      "65536",
		"MCP_SESSION_MODE":   "sometimes",
		"MCP_LOG_LEVEL":      "loud",
		"MCP_LOG_FORMAT":     "xml",
	}
	_, err := FromEnv(env(bad))
	if err == nil {
		t.Fatal("FromEnv accepted bad values")
	}
	msg := err.Error()
	for name, value := range bad {
		if !strings.Contains(msg, name+`="`+value+`": want `) {
			t.Errorf("error does not report %s=%q:\n%s", name, value, msg)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != len(bad) {
		t.Errorf("%d problems reported, want %d:\n%s", n, len(bad), msg)
	}
}

func TestBadPorts(t *testing.T) {
	t.Parallel()
	for _, port := range []string{"-1", "65536", "http", "80.5", " 80"} {
		if _, err := FromEnv(env(map[string]string{"MCP_HTTP_PORT": port})); err == nil || !strings.Contains(err.Error(), "MCP_HTTP_PORT") {
			t.Errorf("MCP_HTTP_PORT=%q: error = %v, want one naming the variable", port, err)
		}
	}
}

func TestAuthModes(t *testing.T) {
	t.Parallel()
	secret := strings.Repeat("s", 32)
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string // a part of the error; "" when the configuration is good
	}{
		{"none on loopback", map[string]string{"MCP_TRANSPORT_TYPE": "http"}, ""},
		{"none on localhost", map[string]string{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "localhost"}, ""},
		{"none on ::1", map[string]string{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "::1"}, ""},
		{"none on all interfaces", map[string]string{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0"}, "MCP_AUTH_ALLOW_UNAUTHENTICATED=true"},
		{"none on all interfaces, opted out", map[string]string{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0", "MCP_AUTH_ALLOW_UNAUTHENTICATED": "true"}, ""},
		{"none over stdio", map[string]string{"MCP_HTTP_HOST": "0.0.0.0"}, ""},
		{"jwt without a key", map[string]string{"MCP_AUTH_MODE": "jwt"}, "needs MCP_AUTH_SECRET_KEY"},
		{"jwt with a short key", map[string]string{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": "hunter2hunter2"}, "has 14 characters; it needs at least 32"},
		{"jwt", map[string]string{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": secret, "MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0"}, ""},
		{"oauth without issuer", map[string]string{"MCP_AUTH_MODE": "oauth", "OAUTH_AUDIENCE": "x"}, "needs OAUTH_ISSUER_URL"},
		{"oauth without audience", map[string]string{"MCP_AUTH_MODE": "oauth", "OAUTH_ISSUER_URL": "https://id.example.com"}, "needs OAUTH_AUDIENCE"},
		{"oauth issuer not a URL", map[string]string{"MCP_AUTH_MODE": "oauth", "OAUTH_ISSUER_URL": "id.example.com", "OAUTH_AUDIENCE": "x"}, "OAUTH_ISSUER_URL=\"id.example.com\": want an absolute http(s) URL"},
		{"unknown mode", map[string]string{"MCP_AUTH_MODE": "basic"}, `MCP_AUTH_MODE="basic": want none, jwt or oauth`},
		{"bad limit", map[string]string{"MCP_HTTP_MAX_SESSIONS": "0"}, `MCP_HTTP_MAX_SESSIONS="0": want a whole number above zero`},
		{"bad in-flight limit", map[string]string{"MCP_MAX_CALLS_IN_FLIGHT": "-1"}, `MCP_MAX_CALLS_IN_FLIGHT="-1": want a whole number above zero`},
		{"bad share", map[string]string{"MCP_HTTP_MAX_SESSIONS_PER_SUBJECT": "none"}, `MCP_HTTP_MAX_SESSIONS_PER_SUBJECT="none": want a whole number above zero`},
		{"bad idle", map[string]string{"MCP_SESSION_IDLE_TIMEOUT": "30"}, `MCP_SESSION_IDLE_TIMEOUT="30": want a positive duration`},
		{"bad keep-alive", map[string]string{"MCP_HTTP_STREAM_KEEPALIVE": "never"}, `MCP_HTTP_STREAM_KEEPALIVE="never": want a positive duration such as 15s, or off`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := FromEnv(env(tc.env))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("FromEnv: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("FromEnv() error = %v, want one containing %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the secret: %v", err)
			}
			if tc.name == "oauth without audience" && c.Auth.JWKSURI != "https://id.example.com/.well-known/jwks.json" {
				t.Errorf("JWKSURI = %q, want the issuer's default", c.Auth.JWKSURI)
			}
		})
	}
}

// TestSecrets: MCP_SECRET_VARS brings in the values of the variables it
// names; with the keys and the Redis password, they are the secrets the
// server holds. A secret that cannot be masked is an error that names
// its variable and not its value.
func TestSecrets(t *testing.T) {
	t.Parallel()
	c, err := FromEnv(env(map[string]string{
		"MCP_SECRET_VARS":     "NOTES_API_KEY, GH_TOKEN",
		"NOTES_API_KEY":       "nk_live_4f9Qm2Zx",
		"GH_TOKEN":            "gh-token-value-1",
		"MCP_STATE_KEYS":      strings.Repeat("s", 32),
		"MCP_REDIS_URL":       "redis://app:r3dis-pass@10.0.0.5:6379/0",
		"MCP_AUTH_MODE":       "jwt",
		"MCP_AUTH_SECRET_KEY": strings.Repeat("j", 32),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.ServerSecrets(), []string{strings.Repeat("j", 32), strings.Repeat("s", 32)}; !reflect.DeepEqual(got, want) {
		t.Errorf("ServerSecrets() = %q, want %q", got, want)
	}
	if got, want := c.Secrets, []string{"nk_live_4f9Qm2Zx", "gh-token-value-1"}; !reflect.DeepEqual(got, want) || RedisPassword(c.RedisURL) != "r3dis-pass" {
		t.Errorf("Secrets = %q, want %q; RedisPassword = %q", got, want, RedisPassword(c.RedisURL))
	}
	_, err = FromEnv(env(map[string]string{
		"MCP_SECRET_VARS": "NOTES_API_KEY,MISSING",
		"NOTES_API_KEY":   "short1",
		"MCP_REDIS_URL":   "redis://:pw5ch@h:6379",
	}))
	if err == nil {
		t.Fatal("FromEnv took secrets too short to mask and a variable that is not set")
	}
	for _, want := range []string{
		"NOTES_API_KEY (in MCP_SECRET_VARS): a secret of 6 bytes is too short to mask",
		"MCP_SECRET_VARS names MISSING, which is not set",
		"MCP_REDIS_URL: its password: a secret of 5 bytes is too short to mask",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nlacks %q", err, want)
		}
	}
	for _, secret := range []string{"short1", "pw5ch"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q holds the secret %q", err, secret)
		}
	}
	if _, err := Resolve(Config{Secrets: []string{"ok-secret-1", "tiny"}}); err == nil || !strings.Contains(err.Error(), "MCP_SECRET_VARS: secret 2 of 2: a secret of 4 bytes") {
		t.Errorf("Resolve of a short secret: %v", err)
	}
}
