package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcpclient"
)

// A taskServer is a server on the SDK alone (not mcpcore) that speaks the
// tasks extension (SEP-2663, protocol 2026-07-28) as its text says: a
// tools/call of a request that declared the extension becomes a task, of
// which tasks/get tells the status, tasks/update takes answers and
// tasks/cancel ends; a request that did not declare it gets the result, or
// -32021 on tasks/*. Each tool plays one case:
//
//   - compute: working for two polls, then completed with {"answer":42};
//   - reject: created completed, with the isError result the same call
//     gets when answered at once;
//   - flaky: failed with a retryable ServiceUnavailable while failures > 0,
//     then as compute;
//   - forever: working until cancelled;
//   - dropped: cancelled by the server;
//   - ask: input_required with the question confirm until answered, then
//     completed with {"confirmed": <the answer's ok>}.
type taskServer struct {
	mu       sync.Mutex
	tasks    map[string]*fakeTask
	next     int
	failures int      // tasks of flaky left to fail
	log      []string // the tasks/* calls, "method id", and "tools/call name declared|plain"
}

type fakeTask struct {
	id, tool  string
	polls     int
	cancelled bool
	answers   map[string]json.RawMessage
}

const tasksExtension = "io.modelcontextprotocol/tasks"

// The isError result of reject, the same answered at once or by a task.
var rejection = map[string]any{
	"content": []any{map[string]any{"type": "text", "text": "Error: No item 9.\n\nRecovery: Try IDs 1-100."}},
	"structuredContent": map[string]any{"error": map[string]any{"code": -32001, "message": "No item 9.",
		"data": map[string]any{"reason": "no_match", "retryable": false, "recovery": map[string]any{"hint": "Try IDs 1-100."}}}},
	"isError": true,
}

var answer42 = map[string]any{
	"content":           []any{map[string]any{"type": "text", "text": `{"answer":42}`}},
	"structuredContent": map[string]any{"answer": 42},
}

// replicaLost is the error of a task whose server ended it, marked
// retryable.
var replicaLost = map[string]any{"code": -32000,
	"message": "The server replica running this task stopped before it finished; call the tool again.",
	"data":    map[string]any{"retryable": true}}

func (s *taskServer) record(entry string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, entry)
}

// calls returns the entries of the log that start with prefix.
func (s *taskServer) calls(prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, e := range s.log {
		if strings.HasPrefix(e, prefix) {
			out = append(out, e)
		}
	}
	return out
}

// declares reports whether a request's _meta declares the tasks extension.
func declares(meta map[string]any) bool {
	caps, _ := meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any)
	if caps == nil { // on the server, _meta is decoded into a map
		raw, _ := json.Marshal(meta["io.modelcontextprotocol/clientCapabilities"])
		json.Unmarshal(raw, &caps)
	}
	ext, _ := caps["extensions"].(map[string]any)
	_, ok := ext[tasksExtension]
	return ok
}

// A result is an arbitrary JSON object sent as a result.
type result struct {
	mcp.ResultBase
	body map[string]any
}

func (r *result) MarshalJSON() ([]byte, error) {
	m := maps.Clone(r.body)
	if len(r.Meta) > 0 {
		m["_meta"] = r.Meta
	}
	return json.Marshal(m)
}

type taskIDParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type updateParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

var (
	errNeedsExtension = &jsonrpc.Error{Code: -32021, Message: "tasks/* needs the extension io.modelcontextprotocol/tasks.",
		Data: json.RawMessage(`{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`)}
	errUnknownTask = &jsonrpc.Error{Code: -32602, Message: "Unknown task: no task with this id is visible to this caller; it may have expired."}
)

// server returns the SDK server of s.
func (s *taskServer) server() *mcp.Server {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	caps.AddExtension(tasksExtension, nil)
	srv := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "1.0.0"}, &mcp.ServerOptions{Capabilities: caps})
	for _, name := range []string{"compute", "reject", "flaky", "forever", "dropped", "ask"} {
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var res mcp.CallToolResult
				raw, _ := json.Marshal(answer42)
				if name == "reject" {
					raw, _ = json.Marshal(rejection)
				}
				err := json.Unmarshal(raw, &res)
				return &res, err
			})
	}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			p := req.GetParams().(*mcp.CallToolParamsRaw)
			if !declares(p.Meta) || p.Name == "mcpcore/taskInput" {
				s.record("tools/call " + p.Name + " plain")
				return next(ctx, method, req)
			}
			s.record("tools/call " + p.Name + " declared")
			return s.create(p.Name), nil
		}
	})
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(mcp.AddReceivingCustomMethod(srv, "tasks/get", func(_ context.Context, _ *mcp.ServerSession, p *taskIDParams) (*result, error) {
		s.record("tasks/get " + p.TaskID)
		if !declares(p.Meta) {
			return nil, errNeedsExtension
		}
		return s.get(p.TaskID)
	}))
	must(mcp.AddReceivingCustomMethod(srv, "tasks/update", func(_ context.Context, _ *mcp.ServerSession, p *updateParams) (*result, error) {
		s.record("tasks/update " + p.TaskID)
		if !declares(p.Meta) {
			return nil, errNeedsExtension
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		t := s.tasks[p.TaskID]
		if t == nil {
			return nil, errUnknownTask
		}
		maps.Copy(t.answers, p.InputResponses)
		return &result{body: map[string]any{"resultType": "complete"}}, nil
	}))
	must(mcp.AddReceivingCustomMethod(srv, "tasks/cancel", func(_ context.Context, _ *mcp.ServerSession, p *taskIDParams) (*result, error) {
		s.record("tasks/cancel " + p.TaskID)
		if !declares(p.Meta) {
			return nil, errNeedsExtension
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		t := s.tasks[p.TaskID]
		if t == nil {
			return nil, errUnknownTask
		}
		t.cancelled = true
		return &result{body: map[string]any{"resultType": "complete"}}, nil
	}))
	return srv
}

// task returns the fields every task has, in status.
func task(id, status string) map[string]any {
	return map[string]any{"taskId": id, "status": status, "createdAt": "2026-12-01T10:30:00.123Z",
		"lastUpdatedAt": "2026-12-01T10:30:00.123Z", "ttlMs": 60000, "pollIntervalMs": 1}
}

// create makes a task of tool and returns its CreateTaskResult.
func (s *taskServer) create(tool string) *result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tasks == nil {
		s.tasks = map[string]*fakeTask{}
	}
	s.next++
	t := &fakeTask{id: fmt.Sprintf("T%dQJ5V2XHKZ7TQ4M6W3LRB5Y2A", s.next), tool: tool, answers: map[string]json.RawMessage{}}
	s.tasks[t.id] = t
	status := "working"
	if tool == "reject" {
		status = "completed"
	}
	body := task(t.id, status)
	body["resultType"] = "task"
	return &result{body: body}
}

// get returns where the task id stands, as tasks/get answers it.
func (s *taskServer) get(id string) (*result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tasks[id]
	if t == nil {
		return nil, errUnknownTask
	}
	t.polls++
	body := task(id, "working")
	body["resultType"] = "complete"
	switch {
	case t.cancelled:
		body["status"], body["statusMessage"] = "cancelled", "Cancelled by the client."
	case t.tool == "dropped":
		body["status"], body["statusMessage"] = "cancelled", "Cancelled by the operator."
	case t.tool == "reject":
		body["status"], body["result"] = "completed", rejection
	case t.tool == "flaky" && s.failures > 0:
		s.failures--
		body["status"], body["error"], body["statusMessage"] = "failed", replicaLost, replicaLost["message"]
	case t.tool == "ask":
		answer, ok := t.answers["confirm"]
		if !ok {
			body["status"], body["statusMessage"] = "input_required", "Waiting for the client's answer to: confirm"
			body["inputRequests"] = map[string]any{"confirm": map[string]any{"method": "elicitation/create",
				"params": map[string]any{"mode": "form", "message": "Go ahead?", "requestedSchema": map[string]any{
					"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}, "required": []any{"ok"}}}}}
			break
		}
		var el struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		}
		json.Unmarshal(answer, &el)
		body["status"], body["result"] = "completed", map[string]any{"content": []any{},
			"structuredContent": map[string]any{"confirmed": el.Action == "accept" && el.Content["ok"] == true}}
	case t.tool == "compute" || t.tool == "flaky":
		if t.polls > 2 {
			body["status"], body["result"] = "completed", answer42
		}
	}
	return &result{body: body}, nil
}

// taskDial connects a client with opts to s and returns the session.
type taskDial func(t *testing.T, s *taskServer, opts *mcp.ClientOptions) *mcp.ClientSession

// inMemory connects a client of mcpclient.NewClient over in-memory
// transports, the client's wrapped by mcpclient.Transport.
func inMemory(t *testing.T, s *taskServer, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectInMemory(t, s, mcpclient.NewClient(&mcp.Implementation{Name: "test"}, opts))
}

func connectInMemory(t *testing.T, s *taskServer, c *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := c.Connect(ctx, mcpclient.Transport(ct), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// overHTTP connects a client of mcpclient.NewClient over Streamable HTTP
// to s served stateless, behind a check of Mcp-Name on tasks/* as the
// extension asks of a server (400 and -32020 on a mismatch or its
// absence); the client's transport is wrapped by mcpclient.Transport and
// has mcpclient.HTTPClient.
func overHTTP(t *testing.T, s *taskServer, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectHTTP(t, s, mcpclient.NewClient(&mcp.Implementation{Name: "test"}, opts), mcpclient.HTTPClient(nil))
}

func connectHTTP(t *testing.T, s *taskServer, c *mcp.Client, client *http.Client) *mcp.ClientSession {
	t.Helper()
	srv := s.server()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	hs := httptest.NewServer(checkTaskName(s, handler))
	t.Cleanup(hs.Close)
	cs, err := c.Connect(context.Background(),
		mcpclient.Transport(&mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: client}), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// checkTaskName refuses a tasks/* POST whose Mcp-Name is not its
// params.taskId, and logs "Mcp-Name <value>" for each.
func checkTaskName(s *taskServer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method := r.Header.Get("Mcp-Method")
		if r.Method != http.MethodPost || !strings.HasPrefix(method, "tasks/") {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				TaskID string `json:"taskId"`
			} `json:"params"`
		}
		json.Unmarshal(body, &msg)
		name := r.Header.Get("Mcp-Name")
		s.record("Mcp-Name " + method + " " + name)
		if name == "" || name != msg.Params.TaskID {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32020,"message":"Header mismatch: Mcp-Name does not match params.taskId."}}`, msg.ID)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// transports are the two ways the tests connect.
var transports = []struct {
	name string
	dial taskDial
}{{"in-memory", inMemory}, {"http-stateless", overHTTP}}
