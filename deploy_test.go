package mcpcore_test

// Serving over HTTP for real: bearer tokens and scopes reach the handler,
// sessions are capped and reclaimed, calls per session are bounded, and a
// client that hangs up cancels its call.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

const testSecret = "0123456789abcdef0123456789abcdef"

// token is an HS256 token of testSecret for user-1 with scopes.
func token(t testing.TB, scopes string) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": "user-1", "client_id": "app-1", "tid": "acme", "scope": scopes,
		"exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// bearer adds a token to every request a client sends.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// serveHTTP serves srv on a real local HTTP server.
func serveHTTP(t testing.TB, srv *mcpcore.Server) string {
	t.Helper()
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL + mcpcore.HTTPPath
}

// dial connects a client to endpoint, with a bearer token when tok is set.
func dial(t testing.TB, endpoint, tok string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: endpoint}
	if tok != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{tok}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "deploy-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

type whoOut struct {
	Subject  string   `json:"subject"`
	ClientID string   `json:"clientId"`
	TenantID string   `json:"tenantId"`
	Scopes   []string `json:"scopes"`
}

// retract needs articles:write, and project:<name>:admin for the project
// it names.
var retract = mcpcore.Tool[struct {
	Project string `json:"project"`
}, whoOut]{
	Name:        "retract",
	Description: "Retracts an article; needs articles:write.",
	Scopes:      []string{"articles:write"},
	Handler: func(ctx *mcpcore.Context, in struct {
		Project string `json:"project"`
	}) (whoOut, error) {
		if err := ctx.RequireScopes("project:" + in.Project + ":admin"); err != nil {
			return whoOut{}, err
		}
		a := ctx.Auth()
		return whoOut{Subject: a.Subject, ClientID: a.ClientID, TenantID: a.TenantID, Scopes: a.Scopes}, nil
	},
}

func TestScopesOverHTTP(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, authedOptions(t, map[string]string{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": testSecret}), retract)
	endpoint := serveHTTP(t, srv)

	if _, err := dial(t, endpoint, ""); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("a client without a token connected: %v", err)
	}

	call := func(tok, project string) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		cs, err := dial(t, endpoint, tok)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "retract", Arguments: map[string]any{"project": project}})
		if err != nil {
			t.Fatal(err)
		}
		var sc map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &sc)
		return res, sc
	}
	for _, tc := range []struct {
		name, scopes string
		missing      []any
	}{
		{"without the definition's scope", "articles:read project:p1:admin", []any{"articles:write"}},
		{"without the scope the handler computes", "articles:write project:p2:admin", []any{"project:p1:admin"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, sc := call(token(t, tc.scopes), "p1")
			e, _ := sc["error"].(map[string]any)
			data, _ := e["data"].(map[string]any)
			if !res.IsError || e["code"] != float64(mcperr.CodeForbidden) || !slices.Equal(data["missingScopes"].([]any), tc.missing) {
				t.Fatalf("result: %+v", sc)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if !strings.HasPrefix(text, "Error: Insufficient permissions") {
				t.Errorf("content[0] = %q", text)
			}
			if strings.Contains(text+string(mustJSON(sc)), "user-1") || strings.Contains(string(mustJSON(sc)), "auth") {
				t.Errorf("auth data on the wire: %s", mustJSON(sc))
			}
		})
	}
	res, sc := call(token(t, "articles:write project:p1:admin"), "p1")
	if res.IsError || sc["subject"] != "user-1" || sc["clientId"] != "app-1" || sc["tenantId"] != "acme" {
		t.Errorf("with every scope: %+v", sc)
	}
	// A missing scope is the caller's limit: logged at notice, not error.
	for _, r := range logs.Failures(t, "retract") {
		if r["level"] != "NOTICE" {
			t.Errorf("a missing scope logged at %v", r["level"])
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestSessionsAreCappedAndReclaimed(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, &mcpcore.ServerOptions{
		Config: mcpcore.Config{SessionIdleTimeout: 300 * time.Millisecond, MaxSessions: 2},
	}, searchTool)
	endpoint := serveHTTP(t, srv)
	open := func() int {
		n := 0
		for ss := range srv.MCPServer().Sessions() {
			if ss.InitializeParams() != nil {
				n++
			}
		}
		return n
	}
	// Clients that listen on no GET stream: an open one counts as activity
	// (http_limits_test.go).
	quiet := func() error {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "deploy-test", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: true}, nil)
		if err == nil {
			t.Cleanup(func() { cs.Close() })
		}
		return err
	}
	for i := range 2 {
		if err := quiet(); err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
	}
	status, body := post(t, srv.Handler(), []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	if status != http.StatusServiceUnavailable || !strings.Contains(string(body), `"id":1,"error":{"code":-32000,"message":"Server busy: it already serves the most sessions it allows (2).`) {
		t.Errorf("a third session: HTTP %d %s", status, body)
	}
	if !logs.Has(t, "HTTP request refused: session limit reached") {
		t.Error("the refusal was not logged")
	}
	// The sessions idle out; their places are free again.
	mcptest.WaitFor(t, "idle sessions to be closed", func() bool { return open() == 0 })
	for i := range 2 {
		if err := quiet(); err != nil {
			t.Fatalf("session %d after the idle ones closed: %v", i+1, err)
		}
	}
}

func TestCallsPerSessionAreBounded(t *testing.T) {
	t.Parallel()
	var running atomic.Int32
	release := make(chan struct{})
	slow := mcpcore.Tool[struct{}, said]{
		Name: "slow", Description: "Waits until the test lets it go.",
		Handler: func(ctx *mcpcore.Context, _ struct{}) (said, error) {
			running.Add(1)
			select {
			case <-release:
			case <-ctx.Done():
			}
			return said{Text: "done"}, nil
		},
	}
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{"MCP_MAX_CALLS_PER_SESSION": "2"})}, slow)
	cs, err := dial(t, serveHTTP(t, srv), "")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
			done <- err
		}()
	}
	mcptest.WaitFor(t, "two calls running", func() bool { return running.Load() == 2 })
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	sc := map[string]any{}
	json.Unmarshal(mustJSON(res.StructuredContent), &sc)
	e, _ := sc["error"].(map[string]any)
	if !res.IsError || e["code"] != float64(mcperr.CodeRateLimited) || !strings.Contains(e["message"].(string), "at most 2 run at once") {
		t.Errorf("a third call: %s", mustJSON(sc))
	}
	close(release)
	for range 2 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"}); err != nil || res.IsError {
		t.Errorf("a call once the others ended: %v %s", err, mustJSON(res))
	}
}

// TestHangUpCancelsTheCall: a client that closes the POST of a call
// cancels the handler, under every protocol version and session mode, and
// the call is logged as RequestCancelled at info.
func TestHangUpCancelsTheCall(t *testing.T) {
	t.Parallel()
	const newer = `"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},`
	for _, tc := range []struct {
		mode, version, meta string
	}{
		{"stateless", "2026-07-28", newer},
		{"stateless", "2025-11-25", ""},
		{"stateful", "2025-11-25", ""},
	} {
		t.Run(tc.mode+"/"+tc.version, func(t *testing.T) {
			t.Parallel()
			started, cancelled := make(chan struct{}), make(chan struct{})
			wait := mcpcore.Tool[struct{}, said]{
				Name: "wait", Description: "Waits for its cancellation.",
				Handler: func(ctx *mcpcore.Context, _ struct{}) (said, error) {
					close(started)
					<-ctx.Done()
					close(cancelled)
					return said{}, ctx.Err()
				},
			}
			srv, logs := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{"MCP_SESSION_MODE": tc.mode})}, wait)
			endpoint := serveHTTP(t, srv)
			header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
				"Mcp-Protocol-Version": {tc.version}}
			if tc.mode == "stateful" {
				req, _ := http.NewRequest("POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
				req.Header = header.Clone()
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				header.Set("Mcp-Session-Id", resp.Header.Get("Mcp-Session-Id"))
				req, _ = http.NewRequest("POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
				req.Header = header.Clone()
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
				}
			}
			ctx, hangUp := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, "POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+tc.meta+`"name":"wait","arguments":{}}}`))
			req.Header = header.Clone()
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "wait")
			go http.DefaultClient.Do(req)
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatalf("the call did not start: %s", logs)
			}
			hangUp()
			select {
			case <-cancelled:
			case <-time.After(10 * time.Second):
				t.Fatal("the handler was not cancelled when the client hung up")
			}
			mcptest.WaitFor(t, "the call's record", func() bool { return len(logs.Failures(t, "wait")) == 1 })
			r := logs.Failures(t, "wait")[0]
			if r["level"] != "INFO" || r["code"] != float64(mcperr.CodeRequestCancelled) {
				t.Errorf("record: %v", r)
			}
		})
	}
}

func TestBatchesOpenNoSession(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{"MCP_HTTP_MAX_SESSIONS": "1"})}, searchTool)
	h := srv.Handler()
	for range 3 {
		status, body := post(t, h, []byte(`[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}]`))
		if status != http.StatusBadRequest || !strings.Contains(string(body), `"code":-32600,"message":"Invalid Request: initialize must be sent alone, not in a batch"`) {
			t.Fatalf("a batched initialize: HTTP %d %s", status, body)
		}
	}
	for range srv.MCPServer().Sessions() {
		t.Error("a batched initialize opened a session")
	}
	status, body := post(t, h, []byte(`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`))
	if status != http.StatusBadRequest || !strings.Contains(string(body), `"id":1,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized`) {
		t.Errorf("a batch before initialize: HTTP %d %s", status, body)
	}
}

// TestStrayBodiesAreBounded: a body that no handler reads (on a probe, on
// a GET of the endpoint) cannot hold the connection.
func TestStrayBodiesAreBounded(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, nil, searchTool)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	for _, req := range []string{"GET /healthz", "POST /healthz", "GET /mcp"} {
		conn, err := net.Dial("tcp", hs.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(conn, "%s HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nContent-Length: 1000\r\n\r\nx", req)
		status, err := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if err != nil {
			t.Errorf("%s with a trickled body: no answer (%v)", req, err)
			continue
		}
		t.Logf("%s: %s", req, strings.TrimSpace(status))
	}
	if !logs.Has(t, "refused: a body on a GET") {
		t.Error("the body on a GET of the endpoint was not logged")
	}
}
