package mcpcore_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// mount serves srv.Handler() in an http.Server of the test's own, on a real
// listener, as a program that mounts the handler does; the Serve goroutine
// runs under the pprof label test=label, which every goroutine the
// server's sessions start inherits. It returns the server and the URL of
// the endpoint.
func mount(t *testing.T, srv *mcpcore.Server, label string) (*http.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go pprof.Do(context.Background(), pprof.Labels("test", label), func(context.Context) { hs.Serve(ln) })
	t.Cleanup(func() { hs.Close() })
	return hs, "http://" + ln.Addr().String() + mcpcore.HTTPPath
}

// connectHTTP connects a client to the Streamable HTTP endpoint at url; the
// SDK's client opens the session's GET stream too.
func connectHTTP(t *testing.T, url string) (*mcp.ClientSession, error) {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0.0.1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// labelled returns the stacks of the goroutines running under the pprof
// label test=label.
func labelled(label string) []string {
	var b bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	var found []string
	for _, rec := range strings.Split(b.String(), "\n\n") {
		if strings.Contains(rec, `"test":"`+label+`"`) {
			found = append(found, rec)
		}
	}
	return found
}

// TestShutdownOfAMountedHandler follows the shutdown of a server whose
// handler a program mounted in its own http.Server, in the order
// Server.Shutdown documents: the MCP server first, then the HTTP server.
func TestShutdownOfAMountedHandler(t *testing.T) {
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
	// Repeats are collapsed for an hour: only Shutdown writes their count.
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: time.Hour}, slow, fast, orderItem)
	hs, url := mount(t, srv, t.Name())
	cs, err := connectHTTP(t, url)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	for range 3 {
		wiretest.CallTool(t, cs, "order_item", map[string]any{"item": "teapot"})
	}
	if strings.Contains(logs.String(), "repeated 2 more times") {
		t.Fatalf("the repeats were counted before Shutdown:\n%s", logs)
	}

	inflight := callAsync(cs, "slow", nil)
	receive(t, "the slow call to start", started)
	shutdown := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		shutdown <- srv.Shutdown(ctx)
	}()

	// New calls are refused, as results a model can read, while the call
	// in flight runs on; and no new session opens.
	mcptest.WaitFor(t, "a call to be refused", func() bool {
		res := wiretest.CallTool(t, cs, "fast", nil)
		if !res.IsError {
			return false // admitted before draining began
		}
		assertResult(t, res, shuttingDown)
		return true
	})
	if _, err := connectHTTP(t, url); err == nil || !strings.Contains(err.Error(), "Service Unavailable") {
		t.Errorf("a new session while draining: Connect = %v, want 503", err)
	}
	if !logs.Has(t, "mcpcore: HTTP request refused: the server is shutting down") {
		t.Errorf("no record of the initialize refused:\n%s", logs)
	}
	select {
	case err := <-shutdown:
		t.Fatalf("Shutdown returned %v with a call in flight", err)
	case <-time.After(50 * time.Millisecond):
	}

	close(release)
	r := receive(t, "the in-flight call", inflight)
	if r.err != nil {
		t.Fatalf("in-flight call: %v", r.err)
	}
	assertResult(t, r.res, `{"content":[{"type":"text","text":"{\n  \"ok\": true\n}"}],"structuredContent":{"ok":true}}`)
	if err := receive(t, "Shutdown to return", shutdown); err != nil {
		t.Errorf("Shutdown = %v, want nil", err)
	}
	if !strings.Contains(logs.String(), "repeated 2 more times") {
		t.Errorf("Shutdown wrote no count of the collapsed repeats:\n%s", logs)
	}

	// The sessions ended with Shutdown, their GET streams with them: the
	// HTTP server has nothing left to wait for. (A stream that outlived
	// srv.Shutdown would hold hs.Shutdown until its context ends.)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Errorf("http.Server.Shutdown = %v after srv.Shutdown: a stream outlived it", err)
	}
	// Nothing the server or its sessions started runs on.
	mcptest.WaitFor(t, "the server's goroutines to end", func() bool { return len(labelled(t.Name())) == 0 })

	// Idempotent: a second Shutdown returns at once, with the same result.
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown = %v, want nil", err)
	}
}

// TestShutdownCancelsWhenItsContextEnds checks that a call still running
// when Shutdown's context ends is cancelled, and that Shutdown returns the
// context's error.
func TestShutdownCancelsWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	started, seen := make(chan struct{}, 1), make(chan error, 1)
	stubborn := stubbornTool(started, seen)
	srv, logs := newServer(t, nil, stubborn)
	hs, url := mount(t, srv, t.Name())
	cs, err := connectHTTP(t, url)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	inflight := callAsync(cs, "stubborn", nil)
	receive(t, "the call to start", started)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := srv.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown = %v, want %v", err, context.DeadlineExceeded)
	}
	if cause := receive(t, "the handler to see cancellation", seen); cause == nil || !strings.Contains(cause.Error(), "server stopped") {
		t.Errorf("context.Cause = %v, want the server stopping", cause)
	}
	// The client learns one way or another; it does not hang.
	receive(t, "the client call to end", inflight)
	if !logs.Has(t, "mcpcore: in-flight calls did not finish in time; cancelled them") {
		t.Errorf("no record of the cancelled calls:\n%s", logs)
	}
	if err := srv.Shutdown(context.Background()); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second Shutdown = %v, want the first one's %v", err, context.DeadlineExceeded)
	}
	closeCtx, cancelClose := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelClose()
	if err := hs.Shutdown(closeCtx); err != nil {
		t.Errorf("http.Server.Shutdown = %v after srv.Shutdown, want nil", err)
	}
}
