package mcpcore_test

// A stateless server serves the calls that change no session state on
// sessions they share, one per protocol version: no session is built and
// torn down per request (see httpserve.SharedSessions).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
)

type probeIn struct {
	Text   string `json:"text,omitempty"`
	WaitMS int    `json:"waitMs,omitempty"`
	Block  bool   `json:"block,omitempty"`
}

type probeOut struct {
	Text    string `json:"text"`
	Session string `json:"session"`
	Client  string `json:"client"`
	Value   string `json:"value"`
}

type middlewareKey struct{}

// probeTool reports what its call sees; blocked hears of each call that
// blocks until it is cancelled.
func probeTool(blocked chan<- error) mcpcore.Tool[probeIn, probeOut] {
	return mcpcore.Tool[probeIn, probeOut]{
		Name:        "probe",
		Description: "Reports the session and context it runs in.",
		Handler: func(c *mcpcore.Context, in probeIn) (probeOut, error) {
			c.Progress(1, 2, "half")
			if in.Block {
				<-c.Done()
				blocked <- c.Err()
				return probeOut{}, c.Err()
			}
			time.Sleep(time.Duration(in.WaitMS) * time.Millisecond)
			out := probeOut{Text: in.Text, Session: fmt.Sprintf("%p", c.Session())}
			if p := c.Session().InitializeParams(); p != nil && p.ClientInfo != nil {
				out.Client = p.ClientInfo.Name
			}
			out.Value, _ = c.Value(middlewareKey{}).(string)
			return out, nil
		},
	}
}

// statelessEndpoint serves a stateless server with the probe behind a
// middleware of the user's, which sets a context value.
func statelessEndpoint(t *testing.T) (string, chan error) {
	t.Helper()
	blocked := make(chan error, 1)
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{Stateless: true}}, probeTool(blocked))
	h := srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), middlewareKey{}, "from the middleware")))
	}))
	t.Cleanup(ts.Close)
	return ts.URL + mcpcore.HTTPPath, blocked
}

const newProtocol = "2026-07-28"

// callProbe calls the probe with args under protocol version (the
// 2026-07-28 protocol's _meta and headers included) and id, and returns
// the status, the content type and the body of the answer.
func callProbe(ctx context.Context, t *testing.T, url, version string, id any, args map[string]any, meta map[string]any) (int, string, string, error) {
	t.Helper()
	if meta == nil {
		meta = map[string]any{}
	}
	name, _ := args["name"].(string)
	if name == "" {
		name = "probe"
	}
	delete(args, "name")
	if version == newProtocol {
		meta["io.modelcontextprotocol/protocolVersion"] = version
		if _, ok := meta["io.modelcontextprotocol/clientCapabilities"]; !ok {
			meta["io.modelcontextprotocol/clientCapabilities"] = map[string]any{}
		}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args, "_meta": meta}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	if version == newProtocol {
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b), err
}

// events returns the data of each SSE event of body.
func events(body string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

// probeResult reads the probe's output and the id from the last event of
// an answer.
func probeResult(t *testing.T, body string) (probeOut, json.RawMessage) {
	t.Helper()
	ev := events(body)
	if len(ev) == 0 {
		t.Fatalf("no event in %.300q", body)
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Result struct {
			Structured probeOut `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(ev[len(ev)-1]), &msg); err != nil {
		t.Fatalf("last event %q: %v", ev[len(ev)-1], err)
	}
	return msg.Result.Structured, msg.ID
}

func TestStatelessCallsShareASessionPerVersion(t *testing.T) {
	url, _ := statelessEndpoint(t)
	sessions := map[string]map[string]bool{}
	for _, version := range []string{"2025-06-18", newProtocol} {
		sessions[version] = map[string]bool{}
		for i := range 10 {
			status, ctype, body, err := callProbe(t.Context(), t, url, version, i, map[string]any{"text": "x"}, nil)
			if err != nil || status != 200 || ctype != "text/event-stream" {
				t.Fatalf("%s call %d: %d %q %v: %s", version, i, status, ctype, err, body)
			}
			out, id := probeResult(t, body)
			if string(id) != fmt.Sprint(i) || out.Text != "x" {
				t.Fatalf("%s call %d: id %s, out %+v", version, i, id, out)
			}
			if out.Value != "from the middleware" {
				t.Errorf("%s: the handler does not see its POST's context values: %+v", version, out)
			}
			sessions[version][out.Session] = true
		}
		if len(sessions[version]) != 1 {
			t.Errorf("%s: 10 calls ran on %d sessions, want 1 shared", version, len(sessions[version]))
		}
	}
	for s := range sessions["2025-06-18"] {
		if sessions[newProtocol][s] {
			t.Errorf("both versions ran on session %s", s)
		}
	}
}

func TestSharedSessionIDsDoNotCollide(t *testing.T) {
	url, _ := statelessEndpoint(t)
	var wg sync.WaitGroup
	for i := range 32 {
		version := "2025-11-25"
		if i%2 == 0 {
			version = newProtocol
		}
		wg.Go(func() {
			text := fmt.Sprint("caller ", i)
			_, _, body, err := callProbe(t.Context(), t, url, version, 1, map[string]any{"text": text, "waitMs": 20}, nil)
			if err != nil {
				t.Errorf("caller %d: %v", i, err)
				return
			}
			out, id := probeResult(t, body)
			if string(id) != "1" || out.Text != text {
				t.Errorf("caller %d got id %s and %q, want 1 and %q", i, id, out.Text, text)
			}
		})
	}
	wg.Wait()
}

func TestSharedSessionStateIsNoOnes(t *testing.T) {
	url, _ := statelessEndpoint(t)
	_, _, body, err := callProbe(t.Context(), t, url, newProtocol, 1, map[string]any{},
		map[string]any{"io.modelcontextprotocol/clientInfo": map[string]any{"name": "alice", "version": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := probeResult(t, body)
	_, _, body, err = callProbe(t.Context(), t, url, newProtocol, 2, map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := probeResult(t, body)
	if a.Session != b.Session {
		t.Fatalf("the calls ran on two sessions: %s and %s", a.Session, b.Session)
	}
	if b.Client != "" {
		t.Errorf("the second caller's session shows client %q, the first caller's", b.Client)
	}
}

func TestSharedSessionWritesProgressToItsPOST(t *testing.T) {
	url, _ := statelessEndpoint(t)
	for _, version := range []string{"2025-06-18", newProtocol} {
		_, _, body, err := callProbe(t.Context(), t, url, version, 7, map[string]any{"text": "p"}, map[string]any{"progressToken": "tok"})
		if err != nil {
			t.Fatal(err)
		}
		ev := events(body)
		if len(ev) != 2 || !strings.Contains(ev[0], `"method":"notifications/progress"`) || !strings.Contains(ev[0], `"progressToken":"tok"`) {
			t.Errorf("%s: want the progress then the result, got %q", version, ev)
		}
	}
}

func TestSharedSessionHangUpCancelsTheCall(t *testing.T) {
	url, blocked := statelessEndpoint(t)
	for _, version := range []string{"2025-03-26", newProtocol} {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _, _, _ = callProbe(ctx, t, url, version, 1, map[string]any{"block": true}, nil)
		}()
		time.Sleep(100 * time.Millisecond)
		cancel()
		select {
		case err := <-blocked:
			if err == nil {
				t.Errorf("%s: the call ended without an error", version)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the call runs on after its client hung up", version)
		}
		<-done
	}
}

func TestSharedSessionProtocolErrorsKeepTheirStatus(t *testing.T) {
	url, _ := statelessEndpoint(t)
	status, ctype, body, err := callProbe(t.Context(), t, url, newProtocol, 3, map[string]any{"name": "nope"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if status != 400 || ctype != "application/json" || !strings.Contains(body, `"code":-32602`) || !strings.Contains(body, `"id":3`) {
		t.Errorf("unknown tool under %s: %d %q %s, want 400 application/json with -32602", newProtocol, status, ctype, body)
	}
}

func TestSharedSessionSurvivesClientsThatLeave(t *testing.T) {
	url, _ := statelessEndpoint(t)
	_, _, body, err := callProbe(t.Context(), t, url, "2025-11-25", 0, map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := probeResult(t, body)
	// Clients that leave before their call starts, while it runs, and as
	// its progress or its answer is written.
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), time.Duration(i%6)*time.Millisecond)
			defer cancel()
			_, _, _, _ = callProbe(ctx, t, url, "2025-11-25", i, map[string]any{"waitMs": i % 4}, map[string]any{"progressToken": i})
		})
	}
	wg.Wait()
	_, _, body, err = callProbe(t.Context(), t, url, "2025-11-25", "after", map[string]any{"text": "still here"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, id := probeResult(t, body)
	if out.Text != "still here" || string(id) != `"after"` {
		t.Fatalf("after clients left: id %s, %+v", id, out)
	}
	if out.Session != first.Session {
		t.Errorf("the shared session was replaced: %s, then %s", first.Session, out.Session)
	}
}

// A large call is decoded on a session of its own: on the shared one, its
// decoding would hold up every other client's calls.
func TestLargeStatelessCallsDoNotShare(t *testing.T) {
	url, _ := statelessEndpoint(t)
	_, _, body, err := callProbe(t.Context(), t, url, "2025-11-25", 1, map[string]any{"text": "small"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	small, _ := probeResult(t, body)
	big := strings.Repeat("x", 100<<10)
	_, _, body, err = callProbe(t.Context(), t, url, "2025-11-25", 2, map[string]any{"text": big}, nil)
	if err != nil {
		t.Fatal(err)
	}
	large, _ := probeResult(t, body)
	if large.Text != big {
		t.Fatalf("the large call's answer lost its text (%d bytes)", len(large.Text))
	}
	if large.Session == small.Session {
		t.Errorf("a call of 100 KiB ran on the shared session")
	}
}
