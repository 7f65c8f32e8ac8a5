package mcpcore_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcptest"
)

type callResult struct {
	res *mcp.CallToolResult
	err error
}

// callAsync calls a tool in a goroutine.
func callAsync(cs *mcp.ClientSession, name string, args any) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		ch <- callResult{res, err}
	}()
	return ch
}

// serve runs srv.Serve until ctx ends, with a client connected to
// it over a pair of pipes: the newline-delimited stream of stdio, which
// the server guards and whose answers it waits for on shutdown.
func serve(t *testing.T, ctx context.Context, srv *mcpcore.Server) (*mcp.ClientSession, <-chan error) {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	st := &mcp.IOTransport{Reader: toServer, Writer: fromServer}
	ct := &mcp.IOTransport{Reader: toClient, Writer: fromClient}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0.0.1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatalf("client Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, served
}

// slowAnswers delays the SDK's answer to every call after its handler
// returned: the moment when a call has left the in-flight count but its
// result is not written yet, and closing the session would drop it.
func slowAnswers(srv *mcpcore.Server, delay time.Duration) {
	srv.MCPServer().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				time.Sleep(delay)
			}
			return res, err
		}
	})
}

const shuttingDown = `{"isError":true,
	"content":[{"type":"text","text":"Error: The server is shutting down; retry the request on a new connection."}],
	"structuredContent":{"error":{"code":-32000,"message":"The server is shutting down; retry the request on a new connection."}}}`

func TestShutdownLetsInFlightCallsFinish(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}, 1), make(chan struct{})
	slow := mcpcore.Tool[caseInput, okOutput]{
		Name: "slow",
		Handler: func(*mcpcore.Context, caseInput) (okOutput, error) {
			started <- struct{}{}
			<-release
			return okOutput{OK: true}, nil
		},
	}
	fast := mcpcore.Tool[caseInput, okOutput]{
		Name:    "fast",
		Handler: func(*mcpcore.Context, caseInput) (okOutput, error) { return okOutput{OK: true}, nil },
	}
	srv, logs := newServer(t, nil, slow, fast)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The result takes a while to reach the wire after the handler
	// returns: the server must wait for it before closing the session.
	slowAnswers(srv, 100*time.Millisecond)
	cs, served := serve(t, ctx, srv)

	inflight := callAsync(cs, "slow", nil)
	receive(t, "the slow call to start", started)
	cancel()

	// Shutdown has begun: new calls are refused, as results a model can
	// read, while the session stays open for the in-flight call.
	mcptest.WaitFor(t, "a call to be refused", func() bool {
		res := wiretest.CallTool(t, cs, "fast", nil)
		if !res.IsError {
			return false // admitted before draining began
		}
		assertResult(t, res, shuttingDown)
		return true
	})

	close(release)
	r := receive(t, "the in-flight call", inflight)
	if r.err != nil {
		t.Fatalf("in-flight call: %v", r.err)
	}
	assertResult(t, r.res, `{"content":[{"type":"text","text":"{\n  \"ok\": true\n}"}],"structuredContent":{"ok":true}}`)
	if err := receive(t, "Serve to return", served); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	if !strings.Contains(logs.String(), "waiting for in-flight calls") {
		t.Errorf("no shutdown record:\n%s", logs)
	}
}

func TestShutdownTimeoutCancelsStragglers(t *testing.T) {
	t.Parallel()
	started, seen := make(chan struct{}, 1), make(chan error, 1)
	stubborn := stubbornTool(started, seen)
	srv, logs := newServer(t, &mcpcore.ServerOptions{ShutdownTimeout: time.Millisecond}, stubborn)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs, served := serve(t, ctx, srv)

	inflight := callAsync(cs, "stubborn", nil)
	receive(t, "the call to start", started)
	cancel()
	if cause := receive(t, "the handler to see cancellation", seen); cause == nil || !strings.Contains(cause.Error(), "server stopped") {
		t.Errorf("context.Cause = %v, want the server stopping", cause)
	}
	if err := receive(t, "Serve to return", served); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	// The client learns one way or another; it does not hang.
	receive(t, "the client call to end", inflight)
	mcptest.WaitFor(t, "the warning", func() bool {
		return strings.Contains(logs.String(), "in-flight calls did not finish in time")
	})
}

// TestShutdownAfterACancelledCall checks that a call the client cancelled,
// whose result the SDK never sends, does not hold shutdown until the
// timeout.
func TestShutdownAfterACancelledCall(t *testing.T) {
	t.Parallel()
	started, returned := make(chan struct{}, 1), make(chan error, 1)
	srv, _ := newServer(t, &mcpcore.ServerOptions{ShutdownTimeout: time.Hour}, blockingTool("blocker", started, returned))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs, served := serve(t, ctx, srv)

	callCtx, cancelCall := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "blocker"})
		done <- err
	}()
	receive(t, "the call to start", started)
	cancelCall()
	receive(t, "CallTool to return", done)
	receive(t, "the handler to return", returned)

	cancel()
	if err := receive(t, "Serve to return", served); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}

func TestServeEndsWhenThePeerLeaves(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, nil, renderTool)
	cs, served := serve(t, context.Background(), srv)
	wiretest.CallTool(t, cs, "render", map[string]any{})
	cs.Close()
	if err := receive(t, "Serve to return", served); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}

func TestStreamableHTTP(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		env  map[string]string
	}{
		{"stateful", nil},
		{"stateless", map[string]string{"MCP_SESSION_MODE": "stateless"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			srv, logs := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, mode.env)}, renderTool, searchTool)
			ts := httptest.NewServer(srv.Handler())
			defer ts.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-client", Version: "0.0.1"}, nil).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + mcpcore.HTTPPath}, nil)
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer cs.Close()
			if stateless := cs.ID() == ""; stateless != (mode.name == "stateless") {
				t.Errorf("session ID %q in %s mode", cs.ID(), mode.name)
			}

			res := wiretest.CallTool(t, cs, "render", map[string]any{})
			assertResult(t, res, `{
				"content":[{"type":"text","text":"{\n  \"items\": [\n    \"a\",\n    \"b\"\n  ],\n  \"total\": 2\n}"}],
				"structuredContent":{"items":["a","b"],"total":2}}`)

			res = wiretest.CallTool(t, cs, "search", map[string]any{"case": "recovery"})
			assertResult(t, res, `{"isError":true,
				"content":[{"type":"text","text":"Error: Upstream slowed down\n\nRecovery: Wait a few seconds before retrying."}],
				"structuredContent":{"error":{"code":-32003,"message":"Upstream slowed down",
					"data":{"retryable":true,"attempt":3,"recovery":{"hint":"Wait a few seconds before retrying."},"reason":"rate_limited"}}}}`)

			recs := logs.Failures(t, "search")
			if len(recs) != 1 || recs[0]["level"] != "WARN" {
				t.Fatalf("records = %v, want one at WARN", recs)
			}
			if sid, _ := recs[0]["sessionId"].(string); (sid != "") != (mode.name == "stateful") || sid != cs.ID() {
				t.Errorf("record sessionId %q, client session %q", sid, cs.ID())
			}
		})
	}
}

// stubbornTools are two tools for shutdown: stubborn ignores its
// cancellation until release is closed; polite returns as soon as it is
// cancelled. Each says on started when its handler runs.
func stubbornTools(started chan<- string, release <-chan struct{}) []mcpcore.Definition {
	return []mcpcore.Definition{
		mcpcore.Tool[caseInput, okOutput]{
			Name: "stubborn",
			Handler: func(*mcpcore.Context, caseInput) (okOutput, error) {
				started <- "stubborn"
				<-release
				return okOutput{OK: true}, nil
			},
		},
		mcpcore.Tool[caseInput, okOutput]{
			Name: "polite",
			Handler: func(ctx *mcpcore.Context, _ caseInput) (okOutput, error) {
				started <- "polite"
				<-ctx.Done()
				return okOutput{}, ctx.Err()
			},
		},
	}
}

// TestShutdownDoesNotWaitForAHandlerThatIgnoresCancellation checks that
// Serve returns after the shutdown timeout, whether ctx ended or
// the input did, although one handler never returns: the call that honoured
// its cancellation has its answer written first, and the stubborn call's
// answer, when it comes at last, is not written to a stream the server let
// go of.
func TestShutdownDoesNotWaitForAHandlerThatIgnoresCancellation(t *testing.T) {
	t.Parallel()
	for _, end := range []string{"ctx", "eof"} {
		t.Run(end, func(t *testing.T) {
			t.Parallel()
			started, release := make(chan string, 2), make(chan struct{})
			defer close(release)
			srv, logs := newServer(t, &mcpcore.ServerOptions{ShutdownTimeout: 50 * time.Millisecond}, stubbornTools(started, release)...)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := openStream(t, func(_ context.Context, tr mcp.Transport) error { return srv.Serve(ctx, tr) })
			s.handshake(t, "2025-06-18")
			s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn","arguments":{}}}` + "\n")
			s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"polite","arguments":{}}}` + "\n")
			receive(t, "a handler to start", started)
			receive(t, "the other handler to start", started)
			if end == "ctx" {
				cancel()
			} else {
				s.in.Close()
			}
			if err := receive(t, "Serve to return", s.ended); err != nil {
				t.Errorf("Serve = %v, want nil", err)
			}
			// Everything the server wrote: the stream is closed once it
			// returned.
			var lines []string
			for l := range s.lines {
				lines = append(lines, l)
			}
			if len(lines) != 1 || cancelledAnswer(lines[0]) != 2 {
				t.Errorf("the server wrote\n%s\nwant the polite call's answer alone: id 2, a RequestCancelled (-32011) result", strings.Join(lines, "\n"))
			}
			if !strings.Contains(logs.String(), "ending the session without the calls that ignored their cancellation") {
				t.Errorf("no record of the call left behind:\n%s", logs)
			}
		})
	}
}

// cancelledAnswer returns the id of line when it answers a tool call with a
// RequestCancelled error result; 0 otherwise.
func cancelledAnswer(line string) int {
	var a struct {
		ID     int `json:"id"`
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Error struct {
					Code int `json:"code"`
				} `json:"error"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if json.Unmarshal([]byte(line), &a) != nil || !a.Result.IsError || a.Result.StructuredContent.Error.Code != -32011 {
		return 0
	}
	return a.ID
}

// stubbornTool is a tool whose call runs until it is cancelled: it says on
// started that it runs, and on seen the cause of its cancellation.
func stubbornTool(started chan<- struct{}, seen chan<- error) mcpcore.Tool[caseInput, okOutput] {
	return mcpcore.Tool[caseInput, okOutput]{
		Name: "stubborn",
		Handler: func(ctx *mcpcore.Context, _ caseInput) (okOutput, error) {
			started <- struct{}{}
			<-ctx.Done()
			seen <- context.Cause(ctx)
			return okOutput{}, ctx.Err()
		},
	}
}
