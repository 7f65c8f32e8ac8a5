package mcpcore_test

// Shared helpers of the wire-level tests: every test builds a real server,
// connects a real client session over the SDK's in-memory transports, and
// asserts what the client receives.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

// logBuffer collects the JSON log records of a server, written from many
// goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// records decodes every record written so far.
func (b *logBuffer) records(t testing.TB) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(b.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		out = append(out, r)
	}
	return out
}

// failures returns the "Error in tool:<name>: …" records (any kind when
// name has a colon, e.g. "resource:item").
func (b *logBuffer) failures(t testing.TB, name string) []map[string]any {
	t.Helper()
	prefix := "Error in tool:" + name + ": "
	if strings.Contains(name, ":") {
		prefix = "Error in " + name + ": "
	}
	var out []map[string]any
	for _, r := range b.records(t) {
		if msg, _ := r["msg"].(string); strings.HasPrefix(msg, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// noEnv is the environment of every test server: empty, so that tests never
// depend on the real environment and can run in parallel.
func noEnv(string) string { return "" }

// envOf returns a Getenv reading from m.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// newServer builds a server that logs JSON records at debug level and above
// into the returned buffer. opts, when given, may adjust the options.
func newServer(t testing.TB, opts *mcpcore.ServerOptions, defs ...mcpcore.Definition) (*mcpcore.Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	if opts == nil {
		opts = &mcpcore.ServerOptions{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(mcpcore.NewLogHandler(logs, slog.LevelDebug, true))
	}
	if opts.Getenv == nil {
		opts.Getenv = noEnv
	}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "test-server", Version: "0.0.1"}, opts, defs...)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return srv, logs
}

// connectClient connects a client session to srv over in-memory transports.
func connectClient(t testing.TB, srv *mcpcore.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0.0.1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client Connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// connect builds a server for defs and connects a client to it.
func connect(t testing.TB, defs ...mcpcore.Definition) (*mcp.ClientSession, *logBuffer) {
	t.Helper()
	srv, logs := newServer(t, nil, defs...)
	return connectClient(t, srv), logs
}

// callTool calls a tool and fails the test on a protocol error.
func callTool(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// toJSON returns v as the generic JSON value any client decodes.
func toJSON(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	return out
}

func parseJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expected JSON %s: %v", s, err)
	}
	return v
}

// canonical is the JSON of a generic value, with map keys sorted.
func canonical(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// assertJSON compares got, marshalled, with the JSON want, semantically
// (key order and whitespace do not matter).
func assertJSON(t testing.TB, what string, got any, want string) {
	t.Helper()
	g := canonical(t, toJSON(t, got))
	w := canonical(t, parseJSON(t, want))
	if g != w {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// resultJSON is a tool result as the client received it, without what the
// SDK adds to every result (its own _meta keys and resultType), so that what
// is compared is what mcpcore produced.
func resultJSON(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	m, ok := toJSON(t, res).(map[string]any)
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
	assertJSON(t, "result", resultJSON(t, res), want)
}

// textOf returns content[0].text of a result that has exactly one text
// block.
func textOf(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("got %d content blocks, want 1: %s", len(res.Content), canonical(t, toJSON(t, res.Content)))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content[0] is %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}

// errorResult checks that res is an error result whose two surfaces agree
// and returns its structuredContent.error.
func errorResult(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if !res.IsError {
		t.Fatalf("isError = false, want true; result %s", canonical(t, resultJSON(t, res)))
	}
	sc, ok := toJSON(t, res.StructuredContent).(map[string]any)
	if !ok {
		t.Fatalf("structuredContent = %v, want an object", res.StructuredContent)
	}
	e, ok := sc["error"].(map[string]any)
	if !ok {
		t.Fatalf("structuredContent.error = %v, want an object", sc["error"])
	}
	if text, msg := textOf(t, res), e["message"].(string); !strings.HasPrefix(text, "Error: "+msg) {
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

// waitFor polls cond until it holds; it fails the test after a generous
// bound and never asserts on time.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
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
