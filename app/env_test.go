package app_test

import (
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

// TestConfigFromEnvValues: each spelling a variable takes lands in its
// field as the table says: in any case, with spaces around list entries.
func TestConfigFromEnvValues(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("k", 32)
	for _, tc := range []struct {
		name, value string
		check       func(app.Config) bool
	}{
		{"MCP_TRANSPORT_TYPE", "stdio", func(c app.Config) bool { return c.Transport == app.TransportStdio }},
		{"MCP_TRANSPORT_TYPE", "HTTP", func(c app.Config) bool { return c.Transport == app.TransportHTTP }},
		{"MCP_HTTP_HOST", "::1", func(c app.Config) bool { return c.HTTPHost == "::1" }},
		{"MCP_HTTP_PORT", "0", func(c app.Config) bool { return c.HTTPPort == app.AnyPort }},
		{"MCP_HTTP_PORT", "65535", func(c app.Config) bool { return c.HTTPPort == 65535 }},
		{"MCP_SESSION_MODE", "stateful", func(c app.Config) bool { return !c.Stateless }},
		{"MCP_SESSION_MODE", "auto", func(c app.Config) bool { return !c.Stateless }},
		{"MCP_SESSION_MODE", "Stateless", func(c app.Config) bool { return c.Stateless }},
		{"MCP_LOG_LEVEL", "debug", func(c app.Config) bool { return c.LogLevel == slog.LevelDebug }},
		{"MCP_LOG_LEVEL", "info", func(c app.Config) bool { return c.LogLevel == slog.LevelInfo }},
		{"MCP_LOG_LEVEL", "notice", func(c app.Config) bool { return c.LogLevel == mcpcore.LevelNotice }},
		{"MCP_LOG_LEVEL", "warning", func(c app.Config) bool { return c.LogLevel == slog.LevelWarn }},
		{"MCP_LOG_LEVEL", "warn", func(c app.Config) bool { return c.LogLevel == slog.LevelWarn }},
		{"MCP_LOG_LEVEL", "ERROR", func(c app.Config) bool { return c.LogLevel == slog.LevelError }},
		{"MCP_LOG_FORMAT", "text", func(c app.Config) bool { return !c.LogJSON }},
		{"MCP_LOG_FORMAT", "JSON", func(c app.Config) bool { return c.LogJSON }},
		{"MCP_ALLOWED_ORIGINS", " https://app.example.com, http://localhost:5173 ,", func(c app.Config) bool {
			return reflect.DeepEqual(c.AllowedOrigins, []string{"https://app.example.com", "http://localhost:5173"})
		}},
		{"MCP_STATE_KEYS", key + " , " + strings.ToUpper(key), func(c app.Config) bool {
			return reflect.DeepEqual(c.StateKeys, []string{key, strings.ToUpper(key)})
		}},
		{"MCP_HTTP_STREAM_KEEPALIVE", "5s", func(c app.Config) bool { return c.StreamKeepAlive == 5*time.Second }},
		{"MCP_HTTP_STREAM_KEEPALIVE", "off", func(c app.Config) bool { return c.StreamKeepAlive < 0 }},
		{"MCP_SESSION_IDLE_TIMEOUT", "90s", func(c app.Config) bool { return c.SessionIdleTimeout == 90*time.Second }},
		{"MCP_RATE_LIMIT", "600/m", func(c app.Config) bool { return c.RateLimit == mcpcore.RateLimit{Calls: 600, Per: time.Minute} }},
		{"MCP_RATE_LIMIT", " 5000 / h ", func(c app.Config) bool { return c.RateLimit == mcpcore.RateLimit{Calls: 5000, Per: time.Hour} }},
		{"MCP_RATE_LIMIT", "100/30s", func(c app.Config) bool { return c.RateLimit == mcpcore.RateLimit{Calls: 100, Per: 30 * time.Second} }},
		{"MCP_AUTH_MODE", "None", func(c app.Config) bool { return c.Auth.Mode == mcphttp.AuthNone }},
		{"MCP_AUTH_ALLOW_UNAUTHENTICATED", "yes", func(c app.Config) bool { return c.AllowUnauthenticated }},
		{"MCP_AUTH_ALLOW_UNAUTHENTICATED", "0", func(c app.Config) bool { return !c.AllowUnauthenticated }},
		{"MCP_AUTH_REQUIRED_SCOPES", "a, b c", func(c app.Config) bool { return reflect.DeepEqual(c.Auth.RequiredScopes, []string{"a", "b", "c"}) }},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			if c := configOf(t, map[string]string{tc.name: tc.value}); !tc.check(c) {
				t.Errorf("ConfigFromEnv() = %+v", c)
			}
		})
	}
	// A mode is read in any case, its URLs without the spaces around them.
	c := configOf(t, map[string]string{"MCP_AUTH_MODE": "OAuth", "OAUTH_ISSUER_URL": " https://id.example.com/ ",
		"MCP_SERVER_RESOURCE_IDENTIFIER": "https://mcp.example.com/mcp"})
	if want := (mcphttp.AuthConfig{Mode: mcphttp.AuthOAuth, Issuer: "https://id.example.com/", ResourceIdentifier: "https://mcp.example.com/mcp"}); !reflect.DeepEqual(c.Auth, want) {
		t.Errorf("Auth = %+v, want %+v", c.Auth, want)
	}
}

// TestConfigFromEnvReportsEveryBadValue: the values ConfigFromEnv cannot
// read are reported together, each once, so that a deployment is fixed in
// one round.
func TestConfigFromEnvReportsEveryBadValue(t *testing.T) {
	t.Parallel()
	bad := map[string]string{
		"MCP_TRANSPORT_TYPE": "carrier-pigeon",
		"MCP_HTTP_PORT":      "65536",
		"MCP_SESSION_MODE":   "sometimes",
		"MCP_LOG_LEVEL":      "loud",
		"MCP_LOG_FORMAT":     "xml",
	}
	_, err := app.ConfigFromEnv(func(k string) string { return bad[k] })
	if err == nil {
		t.Fatal("ConfigFromEnv accepted bad values")
	}
	msg := strings.TrimPrefix(err.Error(), "mcpcore: bad configuration: ")
	for name, value := range bad {
		if !strings.Contains(msg, name+`="`+value+`": want `) {
			t.Errorf("error does not report %s=%q:\n%s", name, value, msg)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != len(bad) {
		t.Errorf("%d problems reported, want %d:\n%s", n, len(bad), msg)
	}
	for _, port := range []string{"-1", "65536", "http", "80.5", " 80"} {
		want := `MCP_HTTP_PORT="` + port + `": want a port number from 0 to 65535`
		if _, err := app.ConfigFromEnv(func(k string) string { return map[string]string{"MCP_HTTP_PORT": port}[k] }); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("MCP_HTTP_PORT=%q: error = %v, want one containing %q", port, err, want)
		}
	}
}

// TestConfigFromEnvChecksTheCombinations: a combination a server could
// not run with is refused by ConfigFromEnv, as New and NewAuth would
// refuse it, and the keys stay out of the error.
func TestConfigFromEnvChecksTheCombinations(t *testing.T) {
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
		{"none on all interfaces", map[string]string{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0"},
			`MCP_AUTH_MODE=none on MCP_HTTP_HOST="0.0.0.0" would let anyone who reaches the port call every tool: ` +
				`set MCP_AUTH_MODE to jwt or oauth, bind to 127.0.0.1, or set MCP_AUTH_ALLOW_UNAUTHENTICATED=true if something in front of the server authenticates`},
		{"none on all interfaces, opted out", map[string]string{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0", "MCP_AUTH_ALLOW_UNAUTHENTICATED": "true"}, ""},
		{"none over stdio", map[string]string{"MCP_HTTP_HOST": "0.0.0.0"}, ""},
		{"jwt", map[string]string{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": secret, "MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0"}, ""},
		{"jwt without a key", map[string]string{"MCP_AUTH_MODE": "jwt"}, "needs MCP_AUTH_SECRET_KEY"},
		{"jwt with a short key", map[string]string{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": "hunter2hunter2"}, "has 14 characters; it needs at least 32"},
		{"oauth issuer not a URL", map[string]string{"MCP_AUTH_MODE": "oauth", "OAUTH_ISSUER_URL": "id.example.com", "OAUTH_AUDIENCE": "x"},
			`OAUTH_ISSUER_URL="id.example.com": want an absolute http(s) URL`},
		{"short state key", map[string]string{"MCP_STATE_KEYS": "hunter2hunter2"}, "MCP_STATE_KEYS: key 1 of 1 has 14 characters; each needs at least 32"},
		{"repeated state key", map[string]string{"MCP_STATE_KEYS": secret + "," + secret}, "MCP_STATE_KEYS: key 2 of 2 repeats key 1"},
		{"bad rate limit", map[string]string{"MCP_RATE_LIMIT": "10"}, `MCP_RATE_LIMIT="10": want calls per a period, such as 10/s, 600/m or 100/30s`},
		{"bad keep-alive", map[string]string{"MCP_HTTP_STREAM_KEEPALIVE": "never"}, `MCP_HTTP_STREAM_KEEPALIVE="never": want a positive duration such as 15s, or off`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := app.ConfigFromEnv(func(k string) string { return tc.env[k] })
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("ConfigFromEnv: %v", err)
			case tc.want != "" && (mcperr.CodeOf(err) != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("ConfigFromEnv() error = %v, want a ConfigurationError containing %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the secret: %v", err)
			}
		})
	}
}

// TestConfigFromEnvSecrets: MCP_SECRET_VARS brings in the values of the
// variables it names. A secret that cannot be masked, or a name whose
// variable is unset, is an error that names its variable and not its
// value; so is a secret set in Go, refused by New.
func TestConfigFromEnvSecrets(t *testing.T) {
	t.Parallel()
	c := configOf(t, map[string]string{
		"MCP_SECRET_VARS": "NOTES_API_KEY, GH_TOKEN",
		"NOTES_API_KEY":   "nk_live_4f9Qm2Zx",
		"GH_TOKEN":        "gh-token-value-1",
	})
	if want := []string{"nk_live_4f9Qm2Zx", "gh-token-value-1"}; !reflect.DeepEqual(c.Secrets, want) {
		t.Errorf("Secrets = %q, want %q", c.Secrets, want)
	}
	_, err := app.ConfigFromEnv(func(k string) string {
		return map[string]string{
			"MCP_SECRET_VARS": "NOTES_API_KEY,MISSING",
			"NOTES_API_KEY":   "short1",
			"MCP_REDIS_URL":   "redis://:pw5ch@h:6379",
		}[k]
	})
	if err == nil {
		t.Fatal("ConfigFromEnv took secrets too short to mask and a variable that is not set")
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
	_, err = app.New(mcpcore.Info{Name: "s"}, app.Config{Secrets: []string{"ok-secret-1", "tiny"}}, nil, echo)
	if mcperr.CodeOf(err) != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), "MCP_SECRET_VARS: secret 2 of 2: a secret of 4 bytes") || strings.Contains(err.Error(), "tiny") {
		t.Errorf("New with a short secret: %v", err)
	}
}
