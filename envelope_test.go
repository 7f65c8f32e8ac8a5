package mcpcore_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
)

// A second initialize on a session is the client's mistake: InvalidRequest,
// not the code 0 the SDK sends for it, over stdio and HTTP alike.
func TestDuplicateInitializeHasACode(t *testing.T) {
	t.Parallel()
	srv := controlServer(t, nil)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-11-25")
	s.send(strings.Replace(initLine("2025-11-25"), `"id":0`, `"id":"again"`, 1))
	if l := s.next(t); !strings.Contains(l, `"id":"again","error":{"code":-32600,`) {
		t.Errorf("stdio: a second initialize was answered %s", l)
	}
	s.stillServesTool(t, "echo")

	h := httptest.NewServer(controlServer(t, nil).Handler())
	defer h.Close()
	c := rawClient{t: t, endpoint: h.URL + mcpcore.HTTPPath}
	var session string
	post := func(body string) map[string]any {
		_, header, b := c.do("POST", session, body, nil)
		if id := header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		var m map[string]any
		json.Unmarshal([]byte(answerOf(header, b)), &m)
		return m
	}
	init := strings.TrimSpace(initLine("2025-11-25"))
	post(init)
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	m := post(init)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32600) {
		t.Errorf("HTTP: a second initialize was answered %v", m)
	}
}

// A URI longer than MaxURIBytes is refused with -32602 before any template
// is matched against it.
func TestLongURIsAreRefused(t *testing.T) {
	t.Parallel()
	srv := controlServer(t, nil)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-11-25")
	for _, uri := range []string{"test://items/" + strings.Repeat("a", 4<<20), "nope://" + strings.Repeat("{", mcpcore.MaxURIBytes)} {
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "long", "method": "resources/read", "params": map[string]any{"uri": uri}})
		s.send(string(line) + "\n")
		if l := s.next(t); !strings.Contains(l, `"id":"long","error":{"code":-32602,`) || len(l) > 1024 {
			t.Errorf("a %d-byte URI was answered %.300s", len(uri), l)
		}
	}
	s.stillServesTool(t, "echo")
}

// An answer to elicitation/create that does not fit the form is the same
// ValidationError, logged at notice, whether it comes during the call
// (2025-11-25 and older) or in a later round (2026-07-28: see
// TestElicitOutcomes).
func TestElicitAnswerOutsideTheFormDuringTheCall(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: -1}, signup(true))
	s := openStream(t, srv.Serve)
	s.send(strings.Replace(initLine("2025-11-25"), `"capabilities":{}`, `"capabilities":{"elicitation":{}}`, 1))
	s.next(t)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	s.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"signup","arguments":{}}}` + "\n")
	var question struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal([]byte(s.next(t)), &question); err != nil || question.Method != "elicitation/create" {
		t.Fatalf("the server asked %+v (%v)", question, err)
	}
	s.send(`{"jsonrpc":"2.0","id":` + string(question.ID) + `,"result":{"action":"accept","content":{"username":"ada","plan":"gold"}}}` + "\n")
	var answer struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	line := s.next(t)
	if err := json.Unmarshal([]byte(line), &answer); err != nil {
		t.Fatal(err)
	}
	if e := answer.Result.StructuredContent.Error; !answer.Result.IsError || e.Code != -32007 || !strings.Contains(e.Message, "plan") {
		t.Errorf("the call was answered %s, want a ValidationError about plan", line)
	}
	if recs := logs.Failures(t, "signup"); len(recs) != 1 || recs[0]["level"] != "NOTICE" {
		t.Errorf("failure records %v, want one at NOTICE", recs)
	}
}
