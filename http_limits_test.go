package mcpcore_test

// The shares and bounds of the HTTP endpoint, on the wire: a malformed
// protocol version header costs a bounded answer and a bounded log, an open
// GET stream keeps its session alive, and each token subject gets a share
// of the session cap.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`

// rawClient speaks to an endpoint one request at a time, as a client that
// writes its own requests would.
type rawClient struct {
	t        testing.TB
	endpoint string
	token    string // bearer token, when set
	http     *http.Client
}

// do sends a request with method and body (none when empty) and the
// session id sid (none when empty), with header set on top, and returns the
// answer's status, headers and body.
func (c rawClient) do(method, sid, body string, header map[string]string) (int, http.Header, []byte) {
	c.t.Helper()
	var rd io.Reader = http.NoBody
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, c.endpoint, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	hc := c.http
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// initialize opens a session, as initialize and its notification, and
// returns its id, or the refusal's status and body.
func (c rawClient) initialize() (sid string, status int, body []byte) {
	c.t.Helper()
	status, h, body := c.do("POST", "", initializeBody, nil)
	if sid = h.Get("Mcp-Session-Id"); sid == "" {
		return "", status, body
	}
	c.do("POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	return sid, status, body
}

// sessionOpen reports whether srv still has the session sid.
func sessionOpen(srv *mcpcore.Server, sid string) bool {
	for ss := range srv.MCPServer().Sessions() {
		if ss.ID() == sid {
			return true
		}
	}
	return false
}

// floodTarget serves searchTool over HTTP, logging at info to the buffer
// it returns, with no summary of repeats within the test, and a raw client
// of its endpoint.
func floodTarget(t *testing.T) (*wiretest.LogBuffer, rawClient) {
	t.Helper()
	logs := &wiretest.LogBuffer{}
	srv, _ := newServer(t, &mcpcore.ServerOptions{
		Logger:       slog.New(mcpcore.NewLogHandler(logs, &mcpcore.LogOptions{Level: slog.LevelInfo, JSON: true})),
		RepeatWindow: time.Hour,
	}, searchTool)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return logs, rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath}
}

// TestProtocolVersionFloodIsBounded: 300 requests with a 60 KB
// Mcp-Protocol-Version header, and 300 with a well-formed version that the
// stateful server refuses, cost a bounded answer each and a bounded log
// (the SDK alone echoed such a header twice in each answer, and logged it
// once per request).
func TestProtocolVersionFloodIsBounded(t *testing.T) {
	t.Parallel()
	logs, c := floodTarget(t)
	sid, status, body := c.initialize()
	if sid == "" {
		t.Fatalf("initialize: HTTP %d %s", status, body)
	}
	const requests = 300
	huge := strings.Repeat("9", 60<<10) // sorts after every version the SDK knows
	for _, tc := range []struct {
		name, version string
		code          mcperr.Code
	}{
		{"60 KB", huge, -32022},                            // the same error, with the header clipped
		{"well-formed, unsupported", "2099-01-01", -32022}, // the SDK's UnsupportedProtocolVersion
	} {
		before := len(logs.String())
		answered, longest := 0, 0
		for i := range requests {
			status, _, body := c.do("POST", sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i+2),
				map[string]string{"Mcp-Protocol-Version": tc.version})
			answered += len(body)
			longest = max(longest, len(body))
			if i > 0 {
				continue
			}
			var answer struct {
				ID    int `json:"id"`
				Error struct {
					Code    mcperr.Code `json:"code"`
					Message string      `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &answer); status != http.StatusBadRequest || err != nil || answer.ID != 2 || answer.Error.Code != tc.code {
				t.Errorf("%s: HTTP %d %.300s", tc.name, status, body)
			}
			if tc.version == huge && !strings.Contains(answer.Error.Message, `"99999999999999999999999999999999"…`) {
				t.Errorf("%s: the message does not quote the header's start: %q", tc.name, answer.Error.Message)
			}
		}
		logged := len(logs.String()) - before
		t.Logf("%s: %d requests, %d bytes answered (longest %d), %d bytes logged", tc.name, requests, answered, longest, logged)
		if longest > 1024 {
			t.Errorf("%s: an answer of %d bytes", tc.name, longest)
		}
		if logged > 2048 {
			t.Errorf("%s: %d bytes logged for %d refusals:\n%.2000s", tc.name, logged, requests, logs.String()[before:])
		}
	}
	// The session still serves a request with its own version.
	if status, _, body := c.do("POST", sid, `{"jsonrpc":"2.0","id":9999,"method":"ping"}`, nil); status != http.StatusOK {
		t.Errorf("a ping after the flood: HTTP %d %s", status, body)
	}
}

// TestAnOpenGETStreamKeepsItsSession: a client that only listens, on the
// GET stream of its session, keeps the session for as long as the stream
// is open, and the idle timeout counts from when it closes; a session
// without one ends at the timeout.
func TestAnOpenGETStreamKeepsItsSession(t *testing.T) {
	t.Parallel()
	const idle = 200 * time.Millisecond
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{SessionIdleTimeout: idle}}, searchTool)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	c := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath}
	listener, status, body := c.initialize()
	if listener == "" {
		t.Fatalf("initialize: HTTP %d %s", status, body)
	}
	quiet, status, body := c.initialize()
	if quiet == "" {
		t.Fatalf("initialize: HTTP %d %s", status, body)
	}

	ctx, closeStream := context.WithCancel(context.Background())
	defer closeStream()
	resp := c.stream(ctx, listener)
	defer resp.Body.Close()
	// The server has the stream open once its headers are here.
	mcptest.WaitFor(t, "the session without a stream to idle out", func() bool { return !sessionOpen(srv, quiet) })
	time.Sleep(5 * idle)
	if !sessionOpen(srv, listener) {
		t.Fatalf("the session with an open GET stream ended after %v of listening (idle timeout %v)", 5*idle, idle)
	}
	closeStream()
	mcptest.WaitFor(t, "the session to idle out once its stream closed", func() bool { return !sessionOpen(srv, listener) })
	// The SDK drops the session from its server before its HTTP handler
	// forgets the id: a ping in between still reaches the closing session.
	mcptest.WaitFor(t, "a ping on the ended session to get 404", func() bool {
		status, _, _ := c.do("POST", listener, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil)
		return status == http.StatusNotFound
	})
}

// TestEachSubjectHasAShareOfSessions: a subject that holds its share of the
// session cap is refused another session with 429 and RateLimited naming
// the limit, while another subject still opens sessions; once the first
// ends one, it may open one again.
func TestEachSubjectHasAShareOfSessions(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, authedOptions(t, map[string]string{
		"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": testSecret,
		"MCP_HTTP_MAX_SESSIONS": "10", "MCP_HTTP_MAX_SESSIONS_PER_SUBJECT": "2",
	}), searchTool)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	alice := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath, token: tokenFor(t, "alice")}
	bob := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath, token: tokenFor(t, "bob")}

	var held []string
	for i := range 2 {
		sid, status, body := alice.initialize()
		if sid == "" {
			t.Fatalf("alice's session %d: HTTP %d %s", i+1, status, body)
		}
		held = append(held, sid)
	}
	sid, status, body := alice.initialize()
	if sid != "" || status != http.StatusTooManyRequests {
		t.Fatalf("alice's third session: HTTP %d, session %q, %s", status, sid, body)
	}
	wiretest.AssertJSON(t, "the refusal", wiretest.Parse(t, string(body)), `{"jsonrpc":"2.0","id":1,"error":{"code":-32003,`+
		`"message":"Too many sessions: this token's subject already holds the most sessions one subject may open (2, MCP_HTTP_MAX_SESSIONS_PER_SUBJECT). End one you no longer use (HTTP DELETE with its Mcp-Session-Id), or wait for an idle one to time out.",`+
		`"data":{"limit":2}}}`)
	if !logs.Has(t, "HTTP request refused: the subject's share of sessions is taken") {
		t.Error("the refusal was not logged")
	}
	for i := range 2 {
		if sid, status, body := bob.initialize(); sid == "" {
			t.Fatalf("bob's session %d while alice holds her share: HTTP %d %s", i+1, status, body)
		}
	}
	// Bob cannot end Alice's session, nor free her place.
	if status, _, _ := bob.do("DELETE", held[0], "", nil); status != http.StatusForbidden {
		t.Errorf("bob's DELETE of alice's session: HTTP %d", status)
	}
	if status, _, _ := alice.do("DELETE", held[0], "", nil); status != http.StatusNoContent {
		t.Fatalf("alice's DELETE: HTTP %d", status)
	}
	if sid, status, body := alice.initialize(); sid == "" {
		t.Errorf("alice's session after she ended one: HTTP %d %s", status, body)
	}
}

// TestAGreedySubjectLeavesSessionsToOthers: with the default share (a
// tenth of MCP_HTTP_MAX_SESSIONS), a subject that initializes in a loop
// gets its share and no more, and another subject still gets a session.
func TestAGreedySubjectLeavesSessionsToOthers(t *testing.T) {
	t.Parallel()
	const limit = 20
	srv, _ := newServer(t, authedOptions(t, map[string]string{
		"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": testSecret, "MCP_HTTP_MAX_SESSIONS": fmt.Sprint(limit),
	}), searchTool)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	greedy := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath, token: tokenFor(t, "greedy")}
	other := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath, token: tokenFor(t, "other")}
	opened, refusal := 0, 0
	for range limit + 5 {
		sid, status, _ := greedy.initialize()
		if sid == "" {
			refusal = status
			break
		}
		opened++
	}
	sid, status, body := other.initialize()
	t.Logf("the greedy subject opened %d of %d sessions, then HTTP %d; another subject: HTTP %d", opened, limit, refusal, status)
	if opened != limit/10 || refusal != http.StatusTooManyRequests {
		t.Errorf("the greedy subject opened %d sessions, then HTTP %d; want %d, then 429", opened, refusal, limit/10)
	}
	if sid == "" {
		t.Errorf("another subject was refused: HTTP %d %s", status, body)
	}
}

// TestAQuietStreamIsKeptAlive: a session's GET stream that no event comes
// down is sent SSE comments every StreamKeepAlive, so that a balancer's
// idle timeout does not cut it.
func TestAQuietStreamIsKeptAlive(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{StreamKeepAlive: 20 * time.Millisecond}}, searchTool)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	c := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath}
	sid, status, body := c.initialize()
	if sid == "" {
		t.Fatalf("initialize: HTTP %d %s", status, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp := c.stream(ctx, sid)
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	comments := 0
	for comments < 3 && lines.Scan() {
		if lines.Text() == ": keep-alive" {
			comments++
		}
	}
	if comments < 3 {
		t.Errorf("%d keep-alive comments on the quiet stream (%v)", comments, lines.Err())
	}
}

// stream opens the GET event stream of session sid, until ctx ends.
func (c rawClient) stream(ctx context.Context, sid string) *http.Response {
	c.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.endpoint, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		c.t.Fatalf("GET: HTTP %d", resp.StatusCode)
	}
	return resp
}

// TestALongCallIsKeptAlive: the answer to a call that runs longer than
// StreamKeepAlive is sent its status line and SSE comments while the
// handler works, from the start of the request, so that a balancer's idle
// timeout does not cut a call that is silent for a minute; the result then
// comes down the same stream. Over both session modes.
func TestALongCallIsKeptAlive(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			slow := mcpcore.Tool[none, said]{Name: "slow", Description: "waits until released",
				Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
					select {
					case <-release:
					case <-ctx.Done():
					}
					return said{"done"}, nil
				}}
			srv, _ := newServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{Stateless: stateless, StreamKeepAlive: 50 * time.Millisecond}}, slow)
			hs := httptest.NewServer(srv.Handler())
			defer hs.Close()
			c := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath}
			sid := ""
			if !stateless {
				var status int
				var body []byte
				if sid, status, body = c.initialize(); sid == "" {
					t.Fatalf("initialize: HTTP %d %s", status, body)
				}
			}
			// Generous: the status line is due after 50 ms; without it, the
			// call would wait for its release, which never comes.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", c.endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			if sid != "" {
				req.Header.Set("Mcp-Session-Id", sid)
			}
			resp, err := http.DefaultClient.Do(req) // returns with the status line: before the result
			if err != nil {
				t.Fatalf("no status line before the call ended: %v", err)
			}
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
				t.Fatalf("HTTP %d, Content-Type %q; want 200 and an event stream", resp.StatusCode, ct)
			}
			lines := bufio.NewScanner(resp.Body)
			for comments := 0; comments < 2; {
				if !lines.Scan() {
					t.Fatalf("the stream ended before the call did (%v)", lines.Err())
				}
				switch line := lines.Text(); {
				case line == ": keep-alive":
					comments++
				case line != "":
					t.Fatalf("%q on the stream before the call was released", line)
				}
			}
			close(release)
			var result string
			for lines.Scan() {
				if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
					result = data
					break
				}
			}
			if !strings.Contains(result, `"id":2`) || !strings.Contains(result, `done`) {
				t.Errorf("the result after the comments is %q", result)
			}
		})
	}
}
