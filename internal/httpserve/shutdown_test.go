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

// A stateless server that drains refuses every request with 503 before the
// SDK sees it, so that a balancer can send it to another replica; a
// notification, which starts nothing, still goes through.
func TestDrainingStatelessEndpointRefusesEveryRequest(t *testing.T) {
	t.Parallel()
	var draining atomic.Bool
	var reached atomic.Int64
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.WriteHeader(http.StatusAccepted)
	})
	h, err := New(Options{MCP: sdk, Path: "/mcp", MaxBodyBytes: 1 << 10, BodyTimeout: time.Second, Stateless: true, Draining: draining.Load})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(body string) (int, string, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
	}
	const call = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"quick"}}`
	if code, _, _ := post(call); code != http.StatusAccepted {
		t.Fatalf("a call before draining: %d", code)
	}
	draining.Store(true)
	code, retry, body := post(call)
	if code != http.StatusServiceUnavailable || retry != "1" || !strings.Contains(body, `"id":3`) || !strings.Contains(body, "shutting down") {
		t.Errorf("a call while draining: %d Retry-After %q %s; want 503, Retry-After 1, a JSON-RPC error for id 3", code, retry, body)
	}
	if code, _, _ := post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`); code != http.StatusAccepted {
		t.Errorf("a notification while draining: %d, want it through", code)
	}
	if n := reached.Load(); n != 2 {
		t.Errorf("the SDK saw %d requests, want 2: the call before draining and the notification", n)
	}
}
