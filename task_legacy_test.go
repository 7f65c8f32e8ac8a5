package mcpcore_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcptest"
)

const legacyVersion = "2025-11-25"

// legacyCall is a request of a 2025-11-25 session (stateless HTTP, the
// version in its header).
func legacyCall(method string, params map[string]any, token string) wireCall {
	return wireCall{method: method, params: params, version: legacyVersion, token: token}
}

// legacyTools are a tool that may run as a task (held until release
// closes), one that must, and one that never does.
func legacyTools(release <-chan struct{}) []mcpcore.Definition {
	return []mcpcore.Definition{
		jobTool("slow", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional}, release),
		jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, nil),
		jobTool("plain", mcpcore.TaskSupport{}, nil),
	}
}

// legacyCreate calls tool as a task and returns the task of its
// CreateTaskResult.
func legacyCreate(t *testing.T, endpoint, tool string, args map[string]any, token string) map[string]any {
	t.Helper()
	a := legacyCall("tools/call", map[string]any{"name": tool, "arguments": args, "task": map[string]any{"ttl": 60000}}, token).send(t, endpoint)
	if a.err != nil {
		t.Fatalf("tools/call %s as a task: %s", tool, a.err)
	}
	created := object(t, a.result)
	task, ok := created["task"].(map[string]any)
	if !ok {
		t.Fatalf("tools/call %s: no nested task in %s", tool, a.result)
	}
	if _, flat := created["taskId"]; flat {
		t.Errorf("the CreateTaskResult of 2025-11-25 is flat: %s", a.result)
	}
	return task
}

// legacyAwait polls a task of 2025-11-25 until its status is want.
func legacyAwait(t *testing.T, endpoint, id, token, want string) map[string]any {
	t.Helper()
	var last map[string]any
	mcptest.WaitFor(t, "task status "+want, func() bool {
		a := legacyCall("tasks/get", map[string]any{"taskId": id}, token).send(t, endpoint)
		if a.err != nil {
			t.Fatalf("tasks/get: %s", a.err)
		}
		last = object(t, a.result)
		return last["status"] == want
	})
	return last
}

func errorCode(t *testing.T, a wireAnswer) float64 {
	t.Helper()
	if a.err == nil {
		t.Fatalf("answered %s, want an error", a.result)
	}
	code, _ := object(t, a.err)["code"].(float64)
	return code
}

// TestLegacyTaskCapabilities: a 2025-11-25 session is told capabilities.tasks
// (cancel, task-augmented tools/call; no list without authentication) and
// each tool's execution.taskSupport; a 2026-07-28 one neither.
func TestLegacyTaskCapabilities(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, nil, legacyTools(nil)...)
	init := legacyCall("initialize", map[string]any{"protocolVersion": legacyVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "c", "version": "1"}}, "").send(t, endpoint)
	if init.err != nil {
		t.Fatalf("initialize: %s", init.err)
	}
	var ir struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
	}
	json.Unmarshal(init.result, &ir)
	if got := string(ir.Capabilities["tasks"]); got != `{"cancel":{},"requests":{"tools":{"call":{}}}}` {
		t.Errorf("capabilities.tasks = %s (initialize %s)", got, init.result)
	}
	if ir.Capabilities["tools"] == nil || ir.Capabilities["logging"] == nil {
		t.Errorf("the SDK's capabilities are lost: %s", init.result)
	}

	list := legacyCall("tools/list", map[string]any{}, "").send(t, endpoint)
	var lr struct {
		Tools []struct {
			Name      string          `json:"name"`
			Execution json.RawMessage `json:"execution"`
			Schema    json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	json.Unmarshal(list.result, &lr)
	want := map[string]string{"slow": `{"taskSupport":"optional"}`, "job": `{"taskSupport":"required"}`, "plain": ``}
	for _, tool := range lr.Tools {
		if string(tool.Execution) != want[tool.Name] || len(tool.Schema) == 0 {
			t.Errorf("tools/list %s: execution %s, inputSchema %s", tool.Name, tool.Execution, tool.Schema)
		}
	}
	if len(lr.Tools) != 3 {
		t.Fatalf("tools/list: %s", list.result)
	}
	modern := wireCall{method: "tools/list", params: map[string]any{}, declare: true}.send(t, endpoint)
	if strings.Contains(string(modern.result), "execution") {
		t.Errorf("a 2026-07-28 tools/list has execution: %s", modern.result)
	}
}

// TestLegacyTaskLifecycle: a task of 2025-11-25 is created nested,
// working, with the ttl asked for; tasks/result blocks until it ends and
// answers its CallToolResult with _meta's related-task; tasks/get reads it
// completed.
func TestLegacyTaskLifecycle(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	endpoint := taskServer(t, nil, legacyTools(release)...)
	task := legacyCreate(t, endpoint, "slow", nil, "")
	id, _ := task["taskId"].(string)
	if !taskIDPattern.MatchString(id) || task["status"] != "working" || task["ttl"] != 60000.0 ||
		task["pollInterval"] != 1000.0 || !isoTime.MatchString(task["createdAt"].(string)) || task["lastUpdatedAt"] != task["createdAt"] {
		t.Fatalf("CreateTaskResult task = %v", task)
	}
	if got := legacyAwait(t, endpoint, id, "", "working"); got["ttl"] != 60000.0 || got["resultType"] != nil {
		t.Errorf("tasks/get = %v", got)
	}

	result := make(chan wireAnswer, 1)
	go func() { result <- legacyCall("tasks/result", map[string]any{"taskId": id}, "").send(t, endpoint) }()
	select {
	case a := <-result:
		t.Fatalf("tasks/result answered before the task ended: %s %s", a.result, a.err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	a := <-result
	if a.err != nil {
		t.Fatalf("tasks/result: %s", a.err)
	}
	r := object(t, a.result)
	meta, _ := r["_meta"].(map[string]any)
	related, _ := meta["io.modelcontextprotocol/related-task"].(map[string]any)
	if related["taskId"] != id || r["isError"] != nil {
		t.Errorf("tasks/result = %s", a.result)
	}
	if sc, _ := r["structuredContent"].(map[string]any); sc["text"] != "computed "+id {
		t.Errorf("tasks/result structuredContent = %v", r["structuredContent"])
	}
	legacyAwait(t, endpoint, id, "", "completed")
}

// TestLegacyTaskToolErrorRendersFailed: a declared failure is one record,
// completed with its isError result; 2025-11-25 reads it failed, its
// statusMessage the result's text, and tasks/result answers the same
// CallToolResult as a synchronous call; 2026-07-28 reads it completed.
func TestLegacyTaskToolErrorRendersFailed(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, nil, legacyTools(nil)...)
	sync := legacyCall("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"mode": "fail"}}, "").send(t, endpoint)
	task := legacyCreate(t, endpoint, "job", map[string]any{"mode": "fail"}, "")
	id := task["taskId"].(string)
	got := legacyAwait(t, endpoint, id, "", "failed")
	if !strings.HasPrefix(got["statusMessage"].(string), "Error: No article matches PMID 1.") {
		t.Errorf("statusMessage = %v", got["statusMessage"])
	}
	a := legacyCall("tasks/result", map[string]any{"taskId": id}, "").send(t, endpoint)
	r, s := object(t, a.result), object(t, sync.result)
	for _, k := range []string{"content", "structuredContent", "isError"} {
		rb, _ := json.Marshal(r[k])
		sb, _ := json.Marshal(s[k])
		if string(rb) != string(sb) || r["isError"] != true {
			t.Errorf("tasks/result %s = %s, the synchronous call's %s", k, rb, sb)
		}
	}
	modern := getTask(t, endpoint, id, "")
	if st := object(t, modern.result)["status"]; st != "completed" {
		t.Errorf("under 2026-07-28 the same task reads %v", st)
	}
}

// TestLegacyTaskCancel: tasks/cancel answers the task, cancelled, and
// stops its handler; a second cancel, of a task ended, is -32602.
func TestLegacyTaskCancel(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	endpoint := taskServer(t, nil, legacyTools(release)...)
	id := legacyCreate(t, endpoint, "slow", nil, "")["taskId"].(string)
	a := legacyCall("tasks/cancel", map[string]any{"taskId": id}, "").send(t, endpoint)
	if a.err != nil {
		t.Fatalf("tasks/cancel: %s", a.err)
	}
	if got := object(t, a.result); got["status"] != "cancelled" || got["taskId"] != id {
		t.Errorf("tasks/cancel = %v", got)
	}
	again := legacyCall("tasks/cancel", map[string]any{"taskId": id}, "").send(t, endpoint)
	if code := errorCode(t, again); code != -32602 || !strings.Contains(string(again.err), "already in terminal status 'cancelled'") {
		t.Errorf("a second tasks/cancel: %s", again.err)
	}
	unknown := legacyCall("tasks/get", map[string]any{"taskId": "NOTATASKNOTATASKNOTATASK22"}, "").send(t, endpoint)
	if errorCode(t, unknown) != -32602 {
		t.Errorf("tasks/get of an unknown id: %s", unknown.err)
	}
}

// TestLegacyTaskRefusals: under 2025-11-25 a required tool called without
// params.task, and a forbidden one with it, are -32601; under 2026-07-28
// tasks/result and tasks/list do not exist.
func TestLegacyTaskRefusals(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, nil, legacyTools(nil)...)
	for _, c := range []wireCall{
		legacyCall("tools/call", map[string]any{"name": "job"}, ""),
		legacyCall("tools/call", map[string]any{"name": "plain", "task": map[string]any{}}, ""),
		{method: "tasks/result", params: map[string]any{"taskId": "NOTATASKNOTATASKNOTATASK22"}, declare: true},
		{method: "tasks/list", params: map[string]any{}, declare: true},
		legacyCall("tasks/list", map[string]any{}, ""), // no authentication: nobody to list for
	} {
		if code := errorCode(t, c.send(t, endpoint)); code != -32601 {
			t.Errorf("%s %v (version %q): code %v, want -32601", c.method, c.params, c.version, code)
		}
	}
	// The same tools, without the task params, answer at once.
	plain := legacyCall("tools/call", map[string]any{"name": "plain"}, "").send(t, endpoint)
	if plain.err != nil || object(t, plain.result)["task"] != nil {
		t.Errorf("a plain call: %s %s", plain.result, plain.err)
	}
}

// TestLegacyTaskList: with authentication, capabilities.tasks.list is
// declared and tasks/list pages through the caller's own tasks only.
func TestLegacyTaskList(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, authedOptions(t, map[string]string{
		"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": testSecret, "MCP_SESSION_MODE": "stateless"}), legacyTools(nil)...)
	endpoint := serveHTTP(t, srv)
	alice, bob := tokenFor(t, "alice"), tokenFor(t, "bob")
	init := legacyCall("initialize", map[string]any{"protocolVersion": legacyVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "c", "version": "1"}}, alice).send(t, endpoint)
	if !strings.Contains(string(init.result), `"tasks":{"list":{},"cancel":{}`) {
		t.Errorf("initialize with authentication: %s", init.result)
	}
	var mine []string
	for range 3 {
		mine = append(mine, legacyCreate(t, endpoint, "job", nil, alice)["taskId"].(string))
	}
	theirs := legacyCreate(t, endpoint, "job", nil, bob)["taskId"].(string)
	a := legacyCall("tasks/list", map[string]any{}, alice).send(t, endpoint)
	var lr struct {
		Tasks []struct {
			TaskID string `json:"taskId"`
			Status string `json:"status"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal(a.result, &lr); err != nil || a.err != nil {
		t.Fatalf("tasks/list: %s %s", a.result, a.err)
	}
	if len(lr.Tasks) != len(mine) {
		t.Fatalf("alice lists %s, want %v", a.result, mine)
	}
	for i, k := range lr.Tasks {
		if k.TaskID != mine[i] || k.TaskID == theirs {
			t.Errorf("alice lists %s, want %v", a.result, mine)
		}
	}
	bad := legacyCall("tasks/list", map[string]any{"cursor": "nope"}, alice).send(t, endpoint)
	if errorCode(t, bad) != -32602 {
		t.Errorf("a bad cursor: %s", bad.err)
	}
	other := legacyCall("tasks/get", map[string]any{"taskId": theirs}, alice).send(t, endpoint)
	if errorCode(t, other) != -32602 {
		t.Errorf("another principal's task: %s", other.err)
	}
}
