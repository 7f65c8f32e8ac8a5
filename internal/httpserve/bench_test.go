package httpserve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkEndpoint is one POST of a tools/call through the endpoint's
// whole chain (server=mcpcore) and straight to the handler behind it
// (server=bare), answered as the SDK answers it: an SSE event, flushed.
// The difference is what the chain costs a call, without the network and
// the SDK that make the end-to-end figures noisy.
func BenchmarkEndpoint(b *testing.B) {
	const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}`
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n")
		http.NewResponseController(w).Flush()
	})
	h, err := New(Options{MCP: sdk, Path: "/mcp", MaxBodyBytes: 1 << 20, BodyTimeout: time.Second,
		Session: func(string) Session { return nil }, MaxSessions: 100, Sessions: func() int { return 1 },
		Endpoints: &Endpoints{}})
	if err != nil {
		b.Fatal(err)
	}
	for name, h := range map[string]http.Handler{"bare": sdk, "mcpcore": h} {
		b.Run("server="+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				r.Header.Set("Mcp-Session-Id", "s1")
				r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
