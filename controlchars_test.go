package mcpcore_test

// Every method that takes a string, driven with each control character in
// that string, over stdio and Streamable HTTP: each request gets exactly
// one well-formed answer under its id, and the server (and its session)
// still serves after all of them. A resources/read of a URI with U+0007
// once ended the stdio server and silently killed an HTTP session: the
// SDK's "resource not found" data formats the URI with Go's %q, which is
// not JSON.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

// controlChars are U+0000–U+001F and U+007F.
func controlChars() []rune {
	var cs []rune
	for c := rune(0); c < 0x20; c++ {
		cs = append(cs, c)
	}
	return append(cs, 0x7f)
}

// stringRequests are the requests of every method that takes a string, with
// s in that string, by name.
func stringRequests(s string) map[string]struct {
	method string
	params any
} {
	type req = struct {
		method string
		params any
	}
	return map[string]req{
		"read unmatched uri":   {"resources/read", map[string]any{"uri": "nope://x" + s}},
		"read template uri":    {"resources/read", map[string]any{"uri": "test://items/x" + s}},
		"read static uri":      {"resources/read", map[string]any{"uri": "config://app" + s}},
		"subscribe uri":        {"resources/subscribe", map[string]any{"uri": "test://items/x" + s}},
		"unsubscribe uri":      {"resources/unsubscribe", map[string]any{"uri": "test://items/x" + s}},
		"tool name":            {"tools/call", map[string]any{"name": "echo" + s, "arguments": map[string]any{"text": "a"}}},
		"tool argument":        {"tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "a" + s}}},
		"prompt name":          {"prompts/get", map[string]any{"name": "brief" + s, "arguments": map[string]any{"topic": "a"}}},
		"prompt argument":      {"prompts/get", map[string]any{"name": "brief", "arguments": map[string]any{"topic": "a" + s}}},
		"completion ref name":  {"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "brief" + s}, "argument": map[string]any{"name": "topic", "value": "a"}}},
		"completion ref uri":   {"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/resource", "uri": "test://items/{id}" + s}, "argument": map[string]any{"name": "id", "value": "a"}}},
		"completion argument":  {"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "brief"}, "argument": map[string]any{"name": "topic" + s, "value": "a"}}},
		"completion value":     {"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "brief"}, "argument": map[string]any{"name": "topic", "value": "a" + s}}},
		"completion context":   {"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "brief"}, "argument": map[string]any{"name": "topic", "value": "a"}, "context": map[string]any{"arguments": map[string]any{"other": "b" + s}}}},
		"tools/list cursor":    {"tools/list", map[string]any{"cursor": "x" + s}},
		"resources/list":       {"resources/list", map[string]any{"cursor": "x" + s}},
		"templates/list":       {"resources/templates/list", map[string]any{"cursor": "x" + s}},
		"prompts/list cursor":  {"prompts/list", map[string]any{"cursor": "x" + s}},
		"logging/setLevel":     {"logging/setLevel", map[string]any{"level": "info" + s}},
		"ping meta":            {"ping", map[string]any{"_meta": map[string]any{"k": "v" + s}}},
		"tool progress token":  {"tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "a"}, "_meta": map[string]any{"progressToken": "t" + s}}},
		"tool request state":   {"tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "a"}, "requestState": "s" + s}},
		"read uri, then valid": {"resources/read", map[string]any{"uri": "test://items/%07" + s}},
	}
}

// controlServer serves one definition of each kind that takes strings.
func controlServer(t *testing.T, env map[string]string) *mcpcore.Server {
	type text struct {
		Text string `json:"text"`
	}
	type topic struct {
		Topic string `json:"topic"`
		Other string `json:"other,omitempty"`
	}
	echoValue := func(_ context.Context, value string, _ map[string]string) ([]string, error) {
		return []string{value}, nil
	}
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, env), RepeatWindow: -1},
		mcpcore.Tool[text, text]{Name: "echo", Handler: func(_ *mcpcore.Context, in text) (text, error) { return in, nil }},
		mcpcore.Resource[idParams, string]{Name: "item", URITemplate: "test://items/{id}", Subscribe: true,
			Complete: map[string]mcpcore.CompleteFunc{"id": echoValue},
			Handler:  func(_ *mcpcore.Context, p idParams) (string, error) { return p.ID, nil }},
		mcpcore.Resource[struct{}, string]{Name: "app", URITemplate: "config://app",
			Handler: func(*mcpcore.Context, struct{}) (string, error) { return "app", nil }},
		mcpcore.Prompt[topic]{Name: "brief", Complete: map[string]mcpcore.CompleteFunc{"topic": echoValue},
			Handler: func(_ *mcpcore.Context, a topic) ([]*mcp.PromptMessage, error) {
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: a.Topic}}}, nil
			}},
	)
	return srv
}

// checkRPCAnswer reports what is wrong with line as the one answer to the
// request with id: it must be a JSON-RPC response under that id, with a
// result or an error with a non-zero code.
func checkRPCAnswer(line, id string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return fmt.Sprintf("not JSON (%v): %.300q", err, line)
	}
	if string(m["id"]) != `"`+id+`"` {
		return fmt.Sprintf("answer under id %s: %.300s", m["id"], line)
	}
	if e, ok := m["error"]; ok {
		var obj struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(e, &obj) != nil || obj.Code == 0 || obj.Message == "" {
			return fmt.Sprintf("error without a code or message: %.300s", line)
		}
		return ""
	}
	if _, ok := m["result"]; !ok {
		return fmt.Sprintf("neither result nor error: %.300s", line)
	}
	return ""
}

func TestControlCharactersOverStdio(t *testing.T) {
	t.Parallel()
	srv := controlServer(t, nil)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-11-25")
	n := 0
	for _, c := range controlChars() {
		for name, r := range stringRequests(string(c)) {
			id := fmt.Sprintf("%s %U", name, c)
			line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": r.method, "params": r.params})
			s.send(string(line) + "\n")
			var answer string
			for answer == "" {
				l := s.next(t)
				if strings.Contains(l, `"method":"notifications/`) {
					continue // a log notification, say
				}
				answer = l
			}
			if bad := checkRPCAnswer(answer, id); bad != "" {
				t.Errorf("%s: %s", id, bad)
			}
			n++
		}
	}
	s.stillServesTool(t, "echo")
	t.Logf("stdio: %d requests, each answered once; the server still serves", n)
}

// stillServesTool checks that a call of tool is still answered.
func (s *stream) stillServesTool(t *testing.T, tool string) {
	t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"` + tool + `","arguments":{"text":"x"}}}` + "\n")
	if l := s.next(t); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":"after","result":{`) {
		t.Fatalf("the call after it was answered %s", l)
	}
}

func TestControlCharactersOverHTTP(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"stateful", "stateless"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			controlCharactersOverHTTP(t, mode)
		})
	}
}

func controlCharactersOverHTTP(t *testing.T, mode string) {
	srv := controlServer(t, map[string]string{"MCP_SESSION_MODE": mode})
	h := httptest.NewServer(srv.Handler())
	defer h.Close()
	c := rawClient{t: t, endpoint: h.URL + mcpcore.HTTPPath}
	var session string
	send := func(body []byte) string {
		t.Helper()
		_, header, b := c.do("POST", session, string(body), map[string]string{"Mcp-Protocol-Version": "2025-11-25"})
		if id := header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		return answerOf(header, b)
	}
	send([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	n := 0
	for _, c := range controlChars() {
		for name, r := range stringRequests(string(c)) {
			id := fmt.Sprintf("%s %U", name, c)
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": r.method, "params": r.params})
			if bad := checkRPCAnswer(send(body), id); bad != "" {
				t.Errorf("%s: %s", id, bad)
			}
			n++
		}
	}
	if bad := checkRPCAnswer(send([]byte(`{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)), "after"); bad != "" {
		t.Fatalf("the session no longer serves: %s", bad)
	}
	t.Logf("HTTP (%s): %d requests, each answered once; the server still serves", mode, n)
}

// answerOf reads the one JSON-RPC response of an HTTP answer: the body, or
// the data of the event that carries it in a stream.
func answerOf(header http.Header, body []byte) string {
	if !strings.HasPrefix(header.Get("Content-Type"), "text/event-stream") {
		return string(body)
	}
	for line := range strings.Lines(string(body)) {
		data, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "data: ")
		if ok && !strings.Contains(data, `"method":"notifications/`) {
			return data
		}
	}
	return ""
}
