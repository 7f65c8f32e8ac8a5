// Package wiretest holds the helpers shared by the framework's wire-level
// tests: a real client session over the SDK's in-memory transports, a log
// buffer whose JSON records tests read back, and JSON comparison of what a
// client received, for this repository's own tests of exact wire JSON;
// users test their servers with the public kit, mcptest.
package wiretest

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A LogBuffer collects the JSON log records of a server, written from many
// goroutines.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Records decodes every record written so far.
func (b *LogBuffer) Records(t testing.TB) []map[string]any {
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

// Failures returns the "Error in tool:<name>: …" records (any kind when
// name has a colon, e.g. "resource:item").
func (b *LogBuffer) Failures(t testing.TB, name string) []map[string]any {
	t.Helper()
	prefix := "Error in tool:" + name + ": "
	if strings.Contains(name, ":") {
		prefix = "Error in " + name + ": "
	}
	var out []map[string]any
	for _, r := range b.Records(t) {
		if msg, _ := r["msg"].(string); strings.HasPrefix(msg, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// Has reports whether a record's message contains msg.
func (b *LogBuffer) Has(t testing.TB, msg string) bool {
	t.Helper()
	for _, r := range b.Records(t) {
		if m, _ := r["msg"].(string); strings.Contains(m, msg) {
			return true
		}
	}
	return false
}

// Connect connects a client session to srv over in-memory transports; the
// session is closed when the test ends.
func Connect(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return ConnectWith(t, srv, nil, "")
}

// ConnectWith is Connect for a client with opts (its handlers and
// capabilities) that asks for protocol version (the latest when "").
func ConnectWith(t testing.TB, srv *mcp.Server, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0.0.1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("client Connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// CallTool calls a tool and fails the test on a protocol error.
func CallTool(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// JSON returns v as the generic JSON value any client decodes.
func JSON(t testing.TB, v any) any {
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

// Canonical is the JSON of a generic value, with map keys sorted.
func Canonical(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Parse decodes the expected JSON s.
func Parse(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expected JSON %s: %v", s, err)
	}
	return v
}

// AssertJSON compares got, marshalled, with the JSON want, semantically
// (key order and whitespace do not matter).
func AssertJSON(t testing.TB, what string, got any, want string) {
	t.Helper()
	if g, w := Canonical(t, JSON(t, got)), Canonical(t, Parse(t, want)); g != w {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// Text returns content[0].text of a result that has exactly one text block.
func Text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("got %d content blocks, want 1: %s", len(res.Content), Canonical(t, JSON(t, res.Content)))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content[0] is %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}
