package mcpcore_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
)

// lineSession is a raw JSON-RPC session with a server served over a pipe
// (the path of stdio, through the guard).
type lineSession struct {
	t      *testing.T
	w      io.Writer
	lines  chan string
	nextID int
	seen   []string // the lines call skipped
}

func newLineSession(t *testing.T, defs ...mcpcore.Definition) *lineSession {
	t.Helper()
	srv, _ := newServer(t, nil, defs...)
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	go srv.Serve(context.Background(), &mcp.IOTransport{Reader: toServer, Writer: fromServer})
	t.Cleanup(func() { fromClient.Close(); toClient.Close() })
	s := &lineSession{t: t, w: fromClient, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(toClient)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	return s
}

// call sends a request and returns its answer's result or error;
// notifications on the way are skipped.
func (s *lineSession) call(method string, params any) (result, rpcErr json.RawMessage) {
	s.t.Helper()
	s.nextID++
	id := s.nextID
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	b, _ := json.Marshal(msg)
	if _, err := fmt.Fprintf(s.w, "%s\n", b); err != nil {
		s.t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("%s: the server closed the session", method)
			}
			var m struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal([]byte(line), &m) == nil && m.ID != nil && *m.ID == id {
				return m.Result, m.Error
			}
			s.seen = append(s.seen, line)
		case <-deadline:
			s.t.Fatalf("%s: no answer", method)
		}
	}
}

// await returns the first line, skipped by call or still to come, that
// holds all of parts.
func (s *lineSession) await(parts ...string) string {
	s.t.Helper()
	holds := func(line string) bool {
		for _, p := range parts {
			if !strings.Contains(line, p) {
				return false
			}
		}
		return true
	}
	for _, line := range s.seen {
		if holds(line) {
			return line
		}
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the server closed the session before a line with %q", parts)
			}
			if holds(line) {
				return line
			}
			s.seen = append(s.seen, line)
		case <-deadline:
			s.t.Fatalf("no line with %q", parts)
		}
	}
}

func (s *lineSession) notify(method string) {
	fmt.Fprintf(s.w, `{"jsonrpc":"2.0","method":%q}`+"\n", method)
}

// TestLegacyTaskOverStdio: over the stdio path (the guard's connection),
// a 2025-11-25 session's params.task reaches the server: the call becomes
// a task, and tasks/result answers its result.
func TestLegacyTaskOverStdio(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s := newLineSession(t, legacyTools(release)...)
	init, _ := s.call("initialize", map[string]any{"protocolVersion": legacyVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "c", "version": "1"}})
	if !strings.Contains(string(init), `"tasks":{"cancel":{},"requests":{"tools":{"call":{}}}}`) {
		t.Errorf("initialize: %s", init)
	}
	s.notify("notifications/initialized")
	tools, _ := s.call("tools/list", map[string]any{})
	if !strings.Contains(string(tools), `"execution":{"taskSupport":"optional"}`) {
		t.Errorf("tools/list: %s", tools)
	}
	res, e := s.call("tools/call", map[string]any{"name": "slow", "task": map[string]any{"ttl": 5000}})
	var created struct {
		Task struct {
			TaskID string `json:"taskId"`
			Status string `json:"status"`
			TTL    int    `json:"ttl"`
		} `json:"task"`
	}
	if json.Unmarshal(res, &created); created.Task.Status != "working" || created.Task.TTL != 5000 {
		t.Fatalf("tools/call with params.task: %s %s", res, e)
	}
	close(release)
	// The client hears of the end without polling.
	note := s.await(`"method":"notifications/tasks/status"`, `"taskId":"`+created.Task.TaskID+`"`, `"status":"completed"`)
	got, _ := s.call("tasks/get", map[string]any{"taskId": created.Task.TaskID})
	var n struct {
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal([]byte(note), &n); string(n.Params) != string(got) {
		t.Errorf("notifications/tasks/status says %s, tasks/get %s", n.Params, got)
	}
	res, e = s.call("tasks/result", map[string]any{"taskId": created.Task.TaskID})
	if !strings.Contains(string(res), `"io.modelcontextprotocol/related-task":{"taskId":"`+created.Task.TaskID+`"}`) ||
		!strings.Contains(string(res), "computed "+created.Task.TaskID) {
		t.Errorf("tasks/result: %s %s", res, e)
	}
	// Methods without params (tasks/list has none to give) are answered,
	// the session kept.
	for _, m := range []string{"tasks/list", "tasks/get", "tasks/result", "tasks/cancel"} {
		if _, e := s.call(m, nil); e == nil {
			t.Errorf("%s without params: no error", m)
		}
	}
	if _, e := s.call("ping", map[string]any{}); e != nil {
		t.Fatalf("ping: %s", e)
	}
	// A protocol error (a JSON-RPC error, not a result) of a call without
	// params.task is answered as it is, the session kept.
	if _, e := s.call("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"mode": "roots"}}); !strings.Contains(string(e), "-32021") {
		t.Errorf("a protocol error under 2025-11-25: %s", e)
	}
	// Without params.task the same tool answers at once.
	res, _ = s.call("tools/call", map[string]any{"name": "slow"})
	if strings.Contains(string(res), `"task"`) || !strings.Contains(string(res), "computed ") {
		t.Errorf("tools/call without params.task: %s", res)
	}
}
