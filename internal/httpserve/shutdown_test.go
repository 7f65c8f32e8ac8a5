package httpserve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestDrainingEndpoint checks what the endpoint does for a server that
// shuts down: once it drains, an initialize that would open a session is
// refused with 503 and a JSON-RPC error, while the requests of sessions
// already open go through; and the POSTs being answered are counted until
// their answer is written.
func TestDrainingEndpoint(t *testing.T) {
	t.Parallel()
	var draining atomic.Bool
	var posts atomic.Int64
	seen := make(chan int64, 1)
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			seen <- posts.Load()
		}
		w.Header().Set("Mcp-Session-Id", "s1")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	})
	h, err := New(Options{MCP: sdk, Path: "/mcp", MaxBodyBytes: 1 << 10, BodyTimeout: time.Second,
		Draining: draining.Load, Posts: &posts})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	send := func(sid, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	const initialize = `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`
	if code, body := send("", initialize); code != http.StatusOK {
		t.Errorf("initialize before draining: %d %s, want 200", code, body)
	}
	if n := <-seen; n != 1 {
		t.Errorf("POSTs counted while one is answered: %d, want 1", n)
	}
	if n := posts.Load(); n != 0 {
		t.Errorf("POSTs counted once answered: %d, want 0", n)
	}

	draining.Store(true)
	want := `{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"The server is shutting down; retry the request on a new connection."}}`
	if code, body := send("", initialize); code != http.StatusServiceUnavailable || strings.TrimSpace(body) != want {
		t.Errorf("initialize while draining: %d %s\nwant 503 %s", code, body, want)
	}
	if code, body := send("s1", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != http.StatusOK {
		t.Errorf("a request of an open session while draining: %d %s, want 200", code, body)
	}
	<-seen
}
