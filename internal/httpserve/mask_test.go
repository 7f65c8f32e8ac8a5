package httpserve

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// endpointSecret is kept by the test below; nothing else here writes it.
const endpointSecret = "httpserve-test-secret-4Kp"

// TestEndpointMasksKeptSecrets: what the endpoint answers, a JSON answer
// or an event stream, never holds a secret the process keeps.
func TestEndpointMasksKeptSecrets(t *testing.T) {
	if err := redact.Keep(endpointSecret); err != nil {
		t.Fatal(err)
	}
	for _, stream := range []bool{false, true} {
		mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			text := `{"jsonrpc":"2.0","id":1,"result":{"text":"the key ` + endpointSecret + ` is not allowed","url":"https://x/?k=` + url.QueryEscape(endpointSecret) + `"}}`
			if !stream {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, text)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message\ndata: "+text+"\n\n")
			w.(http.Flusher).Flush()
			fmt.Fprint(w, "event: message\ndata: {\"method\":\"notifications/progress\",\"params\":{\"message\":\""+endpointSecret+"\"}}\n\n")
		})
		h, err := New(Options{MCP: mcp, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 10, BodyTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if strings.Contains(string(body), endpointSecret) || strings.Count(string(body), redact.Marker) != 2+btoi(stream) {
			t.Errorf("stream %v: the client got %s", stream, body)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
