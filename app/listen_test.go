package app_test

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcphttp"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// TestNewRefusesAnOpenEndpointBeyondLoopback: New refuses to serve HTTP
// beyond loopback with no HTTPAuth, unless told that something in front
// authenticates, with the error ConfigFromEnv gives the environment; and
// a port out of range, set in Go.
func TestNewRefusesAnOpenEndpointBeyondLoopback(t *testing.T) {
	t.Parallel()
	const open = `mcpcore: bad configuration: MCP_AUTH_MODE=none on MCP_HTTP_HOST="0.0.0.0" would let anyone who reaches the port call every tool: ` +
		`set MCP_AUTH_MODE to jwt or oauth, bind to 127.0.0.1, or set MCP_AUTH_ALLOW_UNAUTHENTICATED=true if something in front of the server authenticates`
	auth, err := mcphttp.NewAuth(t.Context(), mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: strings.Repeat("k", 32)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	public := app.Config{Transport: app.TransportHTTP, HTTPHost: "0.0.0.0"}
	for _, tc := range []struct {
		name string
		cfg  app.Config
		auth mcpcore.HTTPAuth
		want string // the whole error; "" when New takes it
	}{
		{"no auth on 0.0.0.0", public, nil, open},
		{"opted out", app.Config{Transport: app.TransportHTTP, HTTPHost: "0.0.0.0", AllowUnauthenticated: true}, nil, ""},
		{"the program's HTTPAuth", public, auth, ""},
		{"the mode's HTTPAuth", app.Config{Transport: app.TransportHTTP, HTTPHost: "0.0.0.0",
			Auth: mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: strings.Repeat("k", 32)}}, nil, ""},
		{"loopback", app.Config{Transport: app.TransportHTTP, HTTPHost: "::1"}, nil, ""},
		{"stdio", app.Config{HTTPHost: "0.0.0.0"}, nil, ""},
		{"port out of range", app.Config{HTTPPort: 70000}, nil, "mcpcore: bad configuration: MCP_HTTP_PORT=70000: want a port number from 0 to 65535"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := app.New(mcpcore.Info{Name: "listen"}, tc.cfg, &app.Options{Server: &mcpcore.ServerOptions{
				HTTPAuth: tc.auth, Logger: slog.New(slog.DiscardHandler)}}, efetchTool)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				a.Close(t.Context())
				return
			}
			if mcperr.CodeOf(err) != mcperr.CodeConfigurationError || err.Error() != tc.want {
				t.Errorf("New = %v\nwant a ConfigurationError %q", err, tc.want)
			}
		})
	}
}

// TestRunEndsWithShutdown: over HTTP, Run returns when the server's
// Shutdown is called, as it does when its context ends, having shut the
// http.Server down: the port is closed.
func TestRunEndsWithShutdown(t *testing.T) {
	t.Parallel()
	logs := &wiretest.LogBuffer{}
	a, err := app.New(mcpcore.Info{Name: "stops"}, app.Config{Transport: app.TransportHTTP, HTTPPort: app.AnyPort},
		&app.Options{Server: &mcpcore.ServerOptions{Logger: slog.New(slog.NewTextHandler(logs, nil))}}, efetchTool)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background()) }()
	url := listeningURL(t, logs)
	cs, err := connectHTTP(url)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	defer cs.Close()
	if err := a.Server().Shutdown(t.Context()); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run still serves after Shutdown")
	}
	if cs, err := connectHTTP(url); err == nil {
		cs.Close()
		t.Error("the endpoint still answers after Run returned")
	}
}

// listeningURL waits for the start-up line of a server over HTTP in logs
// and returns the URL it names.
func listeningURL(t *testing.T, logs *wiretest.LogBuffer) string {
	t.Helper()
	var m []string
	mcptest.WaitFor(t, "the start-up line", func() bool {
		m = listening.FindStringSubmatch(logs.String())
		return m != nil
	})
	return m[1]
}

var listening = regexp.MustCompile(`Connect an MCP client to (http://\S+/mcp)`)

// connectHTTP connects a client to the Streamable HTTP endpoint at url.
func connectHTTP(url string) (*mcp.ClientSession, error) {
	return mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
}
