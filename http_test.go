package mcpcore_test

// The Streamable HTTP endpoint answers every malformed POST with the
// JSON-RPC error the spec names, before the SDK sees it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// post sends body to h as a client would and returns the status and the
// body of the answer. It fails the test if h does not answer in time.
func post(t testing.TB, h http.Handler, body []byte) (int, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, mcpcore.HTTPPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req = req.WithContext(ctx)
	w := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(w, req)
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("no answer to %.200q", body)
	}
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, b
}

// httpHandlers are the endpoint in both session modes.
func httpHandlers(t testing.TB) map[string]http.Handler {
	t.Helper()
	hs := map[string]http.Handler{}
	for _, mode := range []string{"stateless", "stateful"} {
		srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{"MCP_SESSION_MODE": mode})}, searchTool)
		hs[mode] = srv.Handler()
	}
	return hs
}

func TestHTTPAnswersMalformedBodies(t *testing.T) {
	t.Parallel()
	for mode, h := range httpHandlers(t) {
		for _, tc := range []struct {
			name, body string
			status     int
			answer     string
		}{
			{"not JSON", `not json`, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not valid JSON"}}`},
			{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"Parse error: the body has data after its JSON value"}}`},
			{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
			{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string, a whole number or null"}}`},
			{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 400, ``},
			{"30-digit id", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, 400, ``},
			{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the \"id\" member is given twice"}}`},
			{"id twice in a batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}]`, 400,
				`[{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: the batch has invalid elements; none of it was processed"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the \"id\" member is given twice"}}]`},
			{"empty batch", `[]`, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an empty batch"}}`},
			{"a scalar", `42`, 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object, or a batch array of them"}}`},
			{"too deep", strings.Repeat("[", 1001) + strings.Repeat("]", 1001), 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the JSON is nested deeper than 1000 levels"}}`},
			{"batch with an invalid element", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":true,"method":"ping"}]`, 400,
				`[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the batch has invalid elements; none of it was processed"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string, a whole number or null"}}]`},
			{"too large", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 5<<20) + `"}}`, 413,
				`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is longer than 4194304 bytes"}}`},
		} {
			status, got := post(t, h, []byte(tc.body))
			if status != tc.status {
				t.Errorf("%s %s: status %d, want %d: %s", mode, tc.name, status, tc.status, got)
				continue
			}
			var e struct {
				ID    any `json:"id"`
				Error struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if tc.answer == "" {
				// An id the SDK would answer under another id is refused, and
				// not echoed.
				if json.Unmarshal(got, &e) != nil || e.ID != nil || e.Error.Code != -32600 {
					t.Errorf("%s %s: answer %s, want -32600 with id null", mode, tc.name, got)
				}
				continue
			}
			if string(got) != tc.answer {
				t.Errorf("%s %s:\n got %s\nwant %s", mode, tc.name, got, tc.answer)
			}
		}
		// A well-formed request still goes through.
		status, got := post(t, h, []byte(`{"jsonrpc":"2.0","id":7,"method":"ping"}`))
		if status != 200 || !strings.Contains(string(got), `{"jsonrpc":"2.0","id":7,"result":{}}`) {
			t.Errorf("%s ping: %d %s", mode, status, got)
		}
	}
}

// FuzzHTTPEndpoint posts raw bytes to the endpoint in both session modes:
// it must answer in time, without a panic, and with a JSON-RPC error for
// whatever is malformed.
func FuzzHTTPEndpoint(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"case":"recovery"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"search","arguments":{"case":1}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
		`{"jsonrpc":"2.0","id":4,"method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `[]`, `{`, `null`,
	} {
		f.Add([]byte(seed))
	}
	hs := httpHandlers(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		for mode, h := range hs {
			status, got := post(t, h, body)
			if !json.Valid(body) && (status != http.StatusBadRequest || !bytes.Contains(got, []byte(`"code":-32700`))) {
				t.Fatalf("%s: %q is not JSON and was answered %d %s", mode, body, status, got)
			}
			if status != http.StatusBadRequest || !json.Valid(got) {
				continue
			}
			// A 400 with a JSON body is the guard's: a JSON-RPC error
			// object, or an array of them.
			var one struct {
				JSONRPC string          `json:"jsonrpc"`
				Error   *map[string]any `json:"error"`
			}
			var many []json.RawMessage
			if json.Unmarshal(got, &many) == nil {
				if len(many) == 0 {
					t.Fatalf("%s: empty answer array", mode)
				}
				got = many[0]
			}
			if json.Unmarshal(got, &one) != nil || one.JSONRPC != "2.0" || one.Error == nil {
				t.Fatalf("%s: %q answered %d %s", mode, body, status, got)
			}
		}
	})
}

// A batch whose invalid element shares its id with a valid request answers
// that id once, never twice.
func TestHTTPBatchAnswersAnIDOnce(t *testing.T) {
	t.Parallel()
	h := httpHandlers(t)["stateless"]
	status, got := post(t, h, []byte(`[{"jsonrpc":"1.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`))
	want := `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}},` +
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the batch has invalid elements; none of it was processed"}}]`
	if status != 400 || string(got) != want {
		t.Errorf("%d %s\nwant 400 %s", status, got, want)
	}
}

func TestProbes(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, nil, searchTool)
	h := httptest.NewServer(srv.Handler())
	defer h.Close()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(h.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Content-Type %q, Cache-Control %q", path, ct, resp.Header.Get("Cache-Control"))
		}
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	for path, want := range map[string]string{mcpcore.LivenessPath: `{"status":"ok"}`, mcpcore.ReadinessPath: `{"status":"ready"}`} {
		if code, body := get(path); code != http.StatusOK || body != want {
			t.Errorf("GET %s = %d %s, want 200 %s", path, code, body, want)
		}
	}
	mcpcore.Drain(srv) // what shutdown does first
	if code, body := get(mcpcore.ReadinessPath); code != http.StatusServiceUnavailable || body != `{"status":"draining"}` {
		t.Errorf("GET /readyz while draining = %d %s, want 503 draining", code, body)
	}
	if code, _ := get(mcpcore.LivenessPath); code != http.StatusOK {
		t.Errorf("GET /healthz while draining = %d, want 200: the process still lives", code)
	}
	resp, err := http.Post(h.URL+mcpcore.ReadinessPath, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /readyz = %d, want 405", resp.StatusCode)
	}
}

func TestForeignOriginsAreRefused(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{"MCP_ALLOWED_ORIGINS": "https://app.example.com"})}, searchTool)
	h := httptest.NewServer(srv.Handler())
	defer h.Close()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	send := func(origin string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, h.URL+mcpcore.HTTPPath, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := send("http://evil.example")
	var answer struct {
		Error struct{ Code int } `json:"error"`
	}
	if code != http.StatusForbidden || json.Unmarshal([]byte(body), &answer) != nil || answer.Error.Code != -32005 {
		t.Errorf("a foreign origin: %d %s, want 403 with a JSON-RPC error", code, body)
	}
	for _, origin := range []string{"", "https://app.example.com", h.URL} {
		if code, body := send(origin); code != http.StatusOK {
			t.Errorf("origin %q: %d %.200s, want 200", origin, code, body)
		}
	}
	_, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, &mcpcore.ServerOptions{Config: mcpcore.Config{AllowedOrigins: []string{"not a url"}}})
	if mcperr.CodeOf(err) != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), "MCP_ALLOWED_ORIGINS") {
		t.Errorf("a bad MCP_ALLOWED_ORIGINS: %v", err)
	}
}

func TestHTTPBodiesAreBounded(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, nil, searchTool)
	mcpcore.SetBodyTimeout(srv, 300*time.Millisecond)
	h := httptest.NewServer(srv.Handler())
	defer h.Close()
	raw := func(head string, trickle bool) string {
		t.Helper()
		conn, err := net.Dial("tcp", h.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%s\r\n",
			mcpcore.HTTPPath, h.Listener.Addr(), head)
		if trickle {
			go func() {
				for range 20 { // one byte every 100 ms: 2 s to send the body
					if _, err := conn.Write([]byte(" ")); err != nil {
						return
					}
					time.Sleep(100 * time.Millisecond)
				}
			}()
		}
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		b, _ := io.ReadAll(conn)
		return string(b)
	}
	start := time.Now()
	if got := raw("Content-Length: 100000000\r\n", false); !strings.HasPrefix(got, "HTTP/1.1 413") || !strings.Contains(got, `"code":-32700`) {
		t.Errorf("a 100 MB body declared: %.300q, want 413 at once", got)
	}
	if got := raw("Content-Length: 1000\r\n", true); !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, `"code":-32600`) {
		t.Errorf("a trickled body: %.300q, want 408 after the body deadline", got)
	}
	if elapsed := time.Since(start); elapsed > 4*time.Second {
		t.Errorf("the server held the connections %v; the body deadline is 300 ms", elapsed)
	}
}

func TestHTTPRefusalsAreJSONRPCErrors(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, nil, searchTool)
	h := httptest.NewServer(srv.Handler())
	defer h.Close()
	var session string
	send := func(body string, header map[string]string) (int, string, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, h.URL+mcpcore.HTTPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			if v == "session" {
				v = session
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		var m map[string]any
		b, _ := io.ReadAll(resp.Body)
		json.Unmarshal(b, &m)
		return resp.StatusCode, resp.Header.Get("Content-Type"), m
	}
	for _, tc := range []struct {
		name   string
		body   string
		header map[string]string
		status int
		code   float64
		id     any
	}{
		{"a call before initialize", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil, 400, -32600, float64(1)},
		{"unknown session", `{"jsonrpc":"2.0","id":"s-3","method":"tools/list"}`, map[string]string{"Mcp-Session-Id": "nope"}, 404, -32001, "s-3"},
		{"initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, nil, 200, 0, float64(0)},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"foo/bar"}`, map[string]string{"Mcp-Session-Id": "session"}, 400, -32601, float64(1)},
		{"no event-stream accepted", `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, map[string]string{"Accept": "text/html", "Mcp-Session-Id": "session"}, 400, -32600, float64(5)},
	} {
		status, ct, m := send(tc.body, tc.header)
		if tc.code == 0 {
			if status != tc.status {
				t.Fatalf("%s: HTTP %d", tc.name, status)
			}
			continue
		}
		e, _ := m["error"].(map[string]any)
		if status != tc.status || ct != "application/json" || e == nil || e["code"] != tc.code || m["id"] != tc.id || m["jsonrpc"] != "2.0" {
			t.Errorf("%s: %d %s %v, want %d with a JSON-RPC error %v under id %v", tc.name, status, ct, m, tc.status, tc.code, tc.id)
		}
		if msg, _ := e["message"].(string); strings.Contains(msg, "nope") {
			t.Errorf("%s: the message echoes the client's input: %q", tc.name, msg)
		}
	}
}
