package mcpcore_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
)

// wireCall is one JSON-RPC request of a test, sent raw over Streamable HTTP
// under 2026-07-28, with the extension declared in its _meta or not.
type wireCall struct {
	method  string
	params  map[string]any
	declare bool   // the request declares io.modelcontextprotocol/tasks
	version string // "" is 2026-07-28
	token   string // a bearer token, or none
	// caps are client capabilities the request declares besides the
	// extension, such as {"elicitation": {}}.
	caps map[string]any
}

// wireAnswer is the answer: its HTTP status, and its result or error as raw
// JSON.
type wireAnswer struct {
	status int
	result json.RawMessage
	err    json.RawMessage
}

// send posts call to endpoint and returns its answer.
func (call wireCall) send(t testing.TB, endpoint string) wireAnswer {
	t.Helper()
	version := call.version
	if version == "" {
		version = "2026-07-28"
	}
	params := map[string]any{}
	for k, v := range call.params {
		params[k] = v
	}
	caps := map[string]any{}
	for k, v := range call.caps {
		caps[k] = v
	}
	if call.declare {
		caps["extensions"] = map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}
	}
	if version >= "2026-07-28" {
		params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": version,
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "c", "version": "1"},
			"io.modelcontextprotocol/clientCapabilities": caps}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": call.method, "params": params})
	req, _ := http.NewRequest("POST", endpoint, bytes.NewReader(body))
	req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {version}, "Mcp-Method": {call.method}}
	switch {
	case call.method == "tools/call":
		req.Header.Set("Mcp-Name", call.params["name"].(string))
	case strings.HasPrefix(call.method, "tasks/"):
		if id, ok := call.params["taskId"].(string); ok {
			req.Header.Set("Mcp-Name", id)
		}
	}
	if call.token != "" {
		req.Header.Set("Authorization", "Bearer "+call.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.SplitSeq(string(raw), "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"id":1`) {
				raw = []byte(data)
			}
		}
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &msg); err != nil {
		t.Fatalf("%s: answer %d %q is not JSON-RPC: %v", call.method, resp.StatusCode, raw, err)
	}
	return wireAnswer{resp.StatusCode, msg.Result, msg.Error}
}

// object decodes raw JSON into a map, failing the test if it is none.
func object(t testing.TB, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		t.Fatalf("%q is not a JSON object: %v", raw, err)
	}
	return m
}

// taskServer serves defs statelessly over HTTP, and returns the endpoint.
func taskServer(t testing.TB, opts *mcpcore.ServerOptions, defs ...mcpcore.Definition) string {
	t.Helper()
	if opts == nil {
		opts = &mcpcore.ServerOptions{}
	}
	opts.Config.Stateless = true
	srv, _ := newServer(t, opts, defs...)
	return serveHTTP(t, srv)
}
