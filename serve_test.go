package mcpcore_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// serveStdioChildEnv makes the test binary the program of
// TestServeOverStdioIsAWholeProgram.
const serveStdioChildEnv = "MCPCORE_SERVE_STDIO_CHILD"

// TestServeStdioProcess is a whole stdio program: NewServer, then Serve
// over an mcp.StdioTransport. Once Serve returns, it writes to stderr
// whether the server still listens to its fleet's bus, which only
// Shutdown stops.
func TestServeStdioProcess(t *testing.T) {
	if os.Getenv(serveStdioChildEnv) == "" {
		t.Skip("the program of TestServeOverStdioIsAWholeProgram")
	}
	bus := &listenedBus{}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "whole", Version: "1"}, &mcpcore.ServerOptions{Bus: bus}, renderTool)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := srv.Serve(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "after Serve, listening to the bus:", bus.listening.Load())
	os.Exit(0)
}

// TestServeOverStdioIsAWholeProgram: Serve over an mcp.StdioTransport logs
// the start-up line, answers on stdout what it read on stdin, and, once
// its input ends, shuts the server down.
func TestServeOverStdioIsAWholeProgram(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeStdioProcess$")
	cmd.Env = append(os.Environ(), serveStdioChildEnv+"=1")
	cmd.Stdin = strings.NewReader(initLine("2025-06-18") + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"render","arguments":{"case":"ok"}}}` + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the program: %v\n%s", err, stderr.String())
	}
	if want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\n  \"items\": [\n    \"a\",\n    \"b\"\n  ],\n  \"total\": 2\n}"}],"structuredContent":{"items":["a","b"],"total":2}}}`; !strings.Contains(string(out), want) {
		t.Errorf("stdout:\n%s\nwant the answer\n%s", out, want)
	}
	for _, want := range []string{
		`msg="mcpcore: serving \"whole\" 1 over stdio: 1 tool, 0 resources, 0 prompts. Connect an MCP client that launches this command; logs go to stderr."`,
		"after Serve, listening to the bus: false",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr:\n%s\nwant it to hold\n%s", stderr.String(), want)
		}
	}
}

// TestServeOverOtherTransportsLeavesTheServerRunning: over any other
// transport, Serve logs no start-up line, and leaves the server running
// (listening to its fleet's bus) once the session ends.
func TestServeOverOtherTransportsLeavesTheServerRunning(t *testing.T) {
	t.Parallel()
	logs := &wiretest.LogBuffer{}
	bus := &listenedBus{}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "lasting", Version: "1"},
		&mcpcore.ServerOptions{Logger: slog.New(slog.NewTextHandler(logs, nil)), Bus: bus}, renderTool)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(context.Background())
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(context.Background(), &mcp.IOTransport{Reader: toServer, Writer: fromServer})
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.CallTool(t, cs, "render", map[string]any{"case": "ok"})
	cs.Close()
	if err := receive(t, "Serve to return", served); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	if !bus.listening.Load() {
		t.Error("the server stopped listening to its bus as Serve returned")
	}
	if strings.Contains(logs.String(), "mcpcore: serving") {
		t.Errorf("a start-up line over a transport of the program's:\n%s", logs.String())
	}
	// A program that serves a session per connection goes on serving the
	// next one, with the whole server.
	for _, next := range []string{"IOTransport", "InMemoryTransport"} {
		var st, ct mcp.Transport
		if next == "IOTransport" {
			toServer, fromClient := io.Pipe()
			toClient, fromServer := io.Pipe()
			st, ct = &mcp.IOTransport{Reader: toServer, Writer: fromServer}, &mcp.IOTransport{Reader: toClient, Writer: fromClient}
		} else {
			ct, st = mcp.NewInMemoryTransports()
		}
		go func() { served <- srv.Serve(context.Background(), st) }()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "render", Arguments: map[string]any{"case": "ok"}})
		if err != nil || res.IsError {
			t.Errorf("a call in the next session (%s) after one ended: %v %s", next, err, wiretest.JSON(t, res))
		}
		cs.Close()
		if err := receive(t, "Serve to return", served); err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	}
}

// listenedBus is a Bus that carries nothing, and tells whether the server
// listens to it.
type listenedBus struct{ listening atomic.Bool }

func (*listenedBus) Publish(fleet.Event) {}

func (b *listenedBus) Listen(func(fleet.Event)) (stop func()) {
	b.listening.Store(true)
	return func() { b.listening.Store(false) }
}
