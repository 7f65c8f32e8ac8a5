package mcpcore_test

// On a stateful server each initialize opens a session on a connection of
// the endpoint's own, which hands the session the messages the body guard
// parsed (see httpserve's ownSessions). What a client relies on is the same
// as on the SDK's handler; these tests drive it with the SDK's client.

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
)

type askIn struct{}

type askOut struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type askAnswer struct {
	Name string `json:"name" jsonschema:"who asks"`
}

type postKey struct{}

// statefulEndpoint serves a stateful server whose tool asks the client a
// question, behind a middleware that marks each tools/call POST.
func statefulEndpoint(t *testing.T, opts *mcpcore.ServerOptions) (*mcpcore.Server, string) {
	t.Helper()
	ask := mcpcore.Tool[askIn, askOut]{
		Name:        "ask",
		Description: "Asks the client for a name.",
		Handler: func(c *mcpcore.Context, _ askIn) (askOut, error) {
			a, err := mcpcore.Elicit[askAnswer](c, "Your name?")
			if err != nil {
				return askOut{}, err
			}
			v, _ := c.Value(postKey{}).(string)
			return askOut{Name: a.Name, Value: v}, nil
		},
	}
	srv, _ := newServer(t, opts, ask, searchTool)
	h := srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") != "" && r.Method == http.MethodPost {
			r = r.WithContext(context.WithValue(r.Context(), postKey{}, "this POST's"))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return srv, ts.URL + mcpcore.HTTPPath
}

func TestStatefulSessionElicitsAndHearsListChanges(t *testing.T) {
	srv, url := statefulEndpoint(t, nil)
	changed := make(chan struct{}, 4)
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "ada"}}, nil
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("ask: %v %+v", err, res)
	}
	out, _ := res.StructuredContent.(map[string]any)
	if out["name"] != "ada" {
		t.Errorf("the elicited answer did not come back: %+v", res.StructuredContent)
	}
	if out["value"] != "this POST's" {
		t.Errorf("the handler does not see its own POST's context values: %+v", res.StructuredContent)
	}
	// A change outside any call reaches the client on its GET stream.
	deadline := time.After(10 * time.Second)
	for enabled := false; ; enabled = !enabled {
		_ = srv.SetEnabled(ctx, mcpcore.KindTool, "search", enabled)
		select {
		case <-changed:
			return
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("no notifications/tools/list_changed on the GET stream")
		}
	}
}

func TestFailedInitializeLeavesNoSession(t *testing.T) {
	cfg := configOf(t, map[string]string{"MCP_HTTP_MAX_SESSIONS": "1"})
	srv, url := statefulEndpoint(t, &mcpcore.ServerOptions{Config: cfg})
	// An initialize the session refuses (its params are no InitializeParams).
	for range 3 {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for n := countSessions(srv); n != 0; n = countSessions(srv) {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions left open by failed initializes", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("the one place was not freed: %v", err)
	}
	cs.Close()
}

func countSessions(srv *mcpcore.Server) int {
	n := 0
	for range srv.MCPServer().Sessions() {
		n++
	}
	return n
}

func TestLegacyTaskStatusOnTheGETStream(t *testing.T) {
	release := make(chan struct{})
	srv, _ := newServer(t, nil, legacyTools(release)...)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	url := ts.URL + mcpcore.HTTPPath
	session := initSession(t, url)

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %v %v", resp, err)
	}
	defer resp.Body.Close()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()

	_, body, _ := rawPost(t, url, session, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}`)
	ev := events(body)
	var created struct {
		Result struct {
			Task struct {
				TaskID string `json:"taskId"`
			} `json:"task"`
		} `json:"result"`
	}
	if len(ev) != 1 || json.Unmarshal([]byte(ev[0]), &created) != nil || created.Result.Task.TaskID == "" {
		t.Fatalf("tools/call with params.task: %s", body)
	}
	close(release)
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the GET stream ended")
			}
			if strings.Contains(line, `"method":"notifications/tasks/status"`) &&
				strings.Contains(line, created.Result.Task.TaskID) && strings.Contains(line, `"status":"completed"`) {
				return
			}
		case <-deadline:
			t.Fatal("no notifications/tasks/status on the GET stream")
		}
	}
}
