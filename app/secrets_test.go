package app_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/fleet/opener"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type pathIn struct {
	Path string `json:"path"`
}

type textOut struct {
	Text string `json:"text"`
}

var echo = mcpcore.Tool[pathIn, textOut]{Name: "echo", Description: "Send the path back.",
	Handler: func(_ *mcpcore.Context, in pathIn) (textOut, error) { return textOut{Text: in.Path}, nil }}

// TestSecretsOfTheEnvironment: the secrets only the environment holds
// (the values MCP_SECRET_VARS names, the password of MCP_REDIS_URL, the
// credentials in the OTLP headers) are masked in what the server sends,
// without a word from the program; a value too short to mask stops New,
// named by its variable and not by its text.
func TestSecretsOfTheEnvironment(t *testing.T) {
	const (
		fromVars = "env-declared-secret-77"
		redisPw  = "redis-password-of-the-fleet"
		bearer   = "otlp-bearer-token-4242"
		apiKey   = "otlp-api-key-value-99"
	)
	cfg := configOf(t, map[string]string{
		"MCP_SECRET_VARS": "VAULT_TOKEN", "VAULT_TOKEN": fromVars,
		"MCP_REDIS_URL":                      "redis://:" + redisPw + "@10.0.0.5:6379/0",
		"OTEL_EXPORTER_OTLP_HEADERS":         "authorization=Bearer%20" + bearer,
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS":  "x-api-key=" + apiKey,
		"OTEL_EXPORTER_OTLP_METRICS_HEADERS": "x-team=blue-team-name",
	})
	cfg.Telemetry.TracesExporter, cfg.Telemetry.MetricsExporter = "none", "none"
	open := func(string, opener.Options) (*opener.Shared, error) {
		return &opener.Shared{Bus: nopBus{}, Limiter: &fleet.Local{}}, nil
	}
	a := newApp(t, cfg, &app.Options{OpenRedis: open}, echo)
	defer a.Close(context.Background())
	cs := overStdio(t, a.Server())
	path := strings.Join([]string{fromVars, redisPw, bearer, apiKey, "blue-team-name"}, " ")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"path": path}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if want := "[REDACTED] [REDACTED] [REDACTED] [REDACTED] blue-team-name"; !strings.Contains(text, want) {
		t.Errorf("the answer is %s, want it to hold %s", text, want)
	}

	short := configOf(t, map[string]string{"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "authorization=pin1234"})
	_, err = app.New(mcpcore.Info{Name: "s"}, short, nil, echo)
	if mcperr.CodeOf(err) != mcperr.CodeConfigurationError ||
		!strings.Contains(err.Error(), "OTEL_EXPORTER_OTLP_TRACES_HEADERS: header authorization: a secret of 7 bytes is too short to mask") || strings.Contains(err.Error(), "pin1234") {
		t.Errorf("New with a header credential of 7 bytes: %v", err)
	}
}

// overStdio serves srv over a pair of pipes, as over stdio, where every
// byte it writes is masked, and connects a client to it.
func overStdio(t *testing.T, srv *mcpcore.Server) *mcp.ClientSession {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ctx, &mcp.IOTransport{Reader: toServer, Writer: fromServer})
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}
