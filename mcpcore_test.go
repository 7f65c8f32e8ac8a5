package mcpcore_test

// Shared helpers of the wire-level tests: every test builds a real server,
// connects a real client session over the SDK's in-memory transports, and
// asserts what the client receives.

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcphttp"
)

// configOf returns the server's Config the environment m gives, as
// app.ConfigFromEnv reads it: tests configure servers with the variables
// the documentation names, without touching the process environment, and
// so run in parallel.
func configOf(t testing.TB, m map[string]string) mcpcore.Config {
	t.Helper()
	c, err := app.ConfigFromEnv(func(k string) string { return m[k] })
	if err != nil {
		t.Fatalf("ConfigFromEnv(%v): %v", m, err)
	}
	return c.Config
}

// newServer builds a server that logs JSON records at debug level and above
// into the returned buffer. opts, when given, may adjust the options.
func newServer(t testing.TB, opts *mcpcore.ServerOptions, defs ...mcpcore.Definition) (*mcpcore.Server, *wiretest.LogBuffer) {
	t.Helper()
	logs := &wiretest.LogBuffer{}
	if opts == nil {
		opts = &mcpcore.ServerOptions{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(mcpcore.NewLogHandler(logs, &mcpcore.LogOptions{Level: slog.LevelDebug, JSON: true}))
	}
	if opts.RepeatWindow == 0 {
		// Tests read one record per failure; TestRepeatedFailuresCollapse
		// covers the default.
		opts.RepeatWindow = -1
	}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "test-server", Version: "0.0.1"}, opts, defs...)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return srv, logs
}

// withAuth gives opts the bearer authentication of cfg, as package app
// does; its key refresh ends with the test.
func withAuth(t testing.TB, opts *mcpcore.ServerOptions, cfg mcphttp.AuthConfig) *mcpcore.ServerOptions {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	a, err := mcphttp.NewAuth(ctx, cfg, opts.Logger)
	if err != nil {
		t.Fatalf("mcphttp.NewAuth: %v", err)
	}
	opts.HTTPAuth = a
	return opts
}

// appConfigOf is the whole configuration the environment m gives, as
// package app reads it.
func appConfigOf(t testing.TB, m map[string]string) app.Config {
	t.Helper()
	c, err := app.ConfigFromEnv(func(k string) string { return m[k] })
	if err != nil {
		t.Fatalf("ConfigFromEnv(%v): %v", m, err)
	}
	return c
}

// authedOptions are the server options of the environment m with the
// authentication it asks for, as package app builds them.
func authedOptions(t testing.TB, m map[string]string) *mcpcore.ServerOptions {
	t.Helper()
	c := appConfigOf(t, m)
	return withAuth(t, &mcpcore.ServerOptions{Config: c.Config}, c.Auth)
}

// connect builds a server for defs and connects a client to it.
func connect(t testing.TB, defs ...mcpcore.Definition) (*mcp.ClientSession, *wiretest.LogBuffer) {
	t.Helper()
	srv, logs := newServer(t, nil, defs...)
	return wiretest.Connect(t, srv.MCPServer()), logs
}

// resultJSON is a tool result as the client received it, without what the
// SDK adds to every result (its own _meta keys and resultType), so that what
// is compared is what mcpcore produced.
func resultJSON(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	m, ok := wiretest.JSON(t, res).(map[string]any)
	if !ok {
		t.Fatalf("result is not an object: %v", res)
	}
	if meta, ok := m["_meta"].(map[string]any); ok {
		for k := range meta {
			if strings.HasPrefix(k, "io.modelcontextprotocol/") {
				delete(meta, k)
			}
		}
		if len(meta) == 0 {
			delete(m, "_meta")
		}
	}
	if m["resultType"] == "complete" {
		delete(m, "resultType")
	}
	return m
}

// assertResult compares the whole result the client received with want.
func assertResult(t testing.TB, res *mcp.CallToolResult, want string) {
	t.Helper()
	wiretest.AssertJSON(t, "result", resultJSON(t, res), want)
}

// errorResult checks that res is an error result whose two surfaces agree
// and returns its structuredContent.error.
func errorResult(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if !res.IsError {
		t.Fatalf("isError = false, want true; result %s", wiretest.Canonical(t, resultJSON(t, res)))
	}
	sc, ok := wiretest.JSON(t, res.StructuredContent).(map[string]any)
	if !ok {
		t.Fatalf("structuredContent = %v, want an object", res.StructuredContent)
	}
	e, ok := sc["error"].(map[string]any)
	if !ok {
		t.Fatalf("structuredContent.error = %v, want an object", sc["error"])
	}
	if text, msg := wiretest.Text(t, res), e["message"].(string); !strings.HasPrefix(text, "Error: "+msg) {
		t.Errorf("content[0].text %q does not render structuredContent.error.message %q", text, msg)
	}
	return e
}

// rpcError returns the JSON-RPC error inside err, failing the test when
// there is none.
func rpcError(t testing.TB, err error) *jsonrpc.Error {
	t.Helper()
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("error = %v (%T), want a JSON-RPC error", err, err)
	}
	return werr
}

// receive waits for a value on ch, failing the test if it never comes.
func receive[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}
