package mcpcore_test

// The endpoint's own sessions apply the SDK handler's method table before
// a session sees a request (httpserve/sdkrules.go). A differential test
// pins it to the SDK's: every method of the protocol, and some that are
// not, with and without an id and params, gets the status the bare SDK
// handler gives it in an initialized session.

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
)

// initSession opens a session at url under 2025-11-25 and returns its id.
func initSession(t *testing.T, url string) string {
	t.Helper()
	status, _, header := rawPost(t, url, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	id := header.Get("Mcp-Session-Id")
	if status != 200 || id == "" {
		t.Fatalf("initialize: %d, session %q", status, id)
	}
	if status, _, _ := rawPost(t, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != 202 {
		t.Fatalf("initialized: %d", status)
	}
	return id
}

func rawPost(t *testing.T, url, session, body string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestMethodTableIsTheSDKs(t *testing.T) {
	bare := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	sdk := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return bare }, nil))
	defer sdk.Close()
	srv, _ := newServer(t, nil, searchTool)
	ours := httptest.NewServer(srv.Handler())
	defer ours.Close()
	sdkSession, ourSession := initSession(t, sdk.URL), initSession(t, ours.URL+mcpcore.HTTPPath)

	methods := []string{"completion/complete", "server/discover", "initialize", "ping", "prompts/list",
		"prompts/get", "tools/list", "tools/call", "resources/list", "resources/templates/list",
		"resources/read", "logging/setLevel", "resources/subscribe", "subscriptions/listen",
		"resources/unsubscribe", "notifications/cancelled", "notifications/initialized",
		"notifications/roots/list_changed", "notifications/progress", "notifications/message",
		"sampling/createMessage", "elicitation/create", "roots/list", "tasks/get", "nope", "tools/callx"}
	for n, m := range methods {
		for _, form := range []string{`"id":%d,"method":%q`, `"method":%q`, `"id":%d,"method":%q,"params":{}`, `"method":%q,"params":{}`} {
			var body string
			if strings.HasPrefix(form, `"id"`) {
				body = `{"jsonrpc":"2.0",` + fmt.Sprintf(form, 100+n, m) + `}`
			} else {
				body = `{"jsonrpc":"2.0",` + fmt.Sprintf(form, m) + `}`
			}
			want, wantBody, _ := rawPost(t, sdk.URL, sdkSession, body)
			got, gotBody, _ := rawPost(t, ours.URL+mcpcore.HTTPPath, ourSession, body)
			// Where the SDK refuses before the session, so does the
			// endpoint; where it lets the session answer, so does it.
			if (want >= 400) != (got >= 400) || want == 202 && got != 202 {
				t.Errorf("%s: the SDK answers %d (%.80s), the endpoint %d (%.80s)", body, want, wantBody, got, gotBody)
			}
		}
	}
}
