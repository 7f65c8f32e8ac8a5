package mcpcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// taskIn is the input of the task tools of these tests.
type taskIn struct {
	Mode string `json:"mode,omitempty"`
}

var (
	taskNoMatch  = mcpcore.Failure{Code: mcperr.CodeNotFound, Reason: "no_match", When: "Nothing matches.", Recovery: "Check the query."}
	taskUpstream = mcpcore.Failure{Code: mcperr.CodeServiceUnavailable, Reason: "upstream_down", When: "The upstream is down.", Recovery: "Retry later.", Retryable: mcpcore.Retryable}
)

// jobTool is a tool that runs as mode says: done at once, or after release
// is closed; and ends as its input says: a result, a declared failure, a
// classified service error, a panic, an answer over the bound, a
// protocol error.
func jobTool(name string, support mcpcore.TaskSupport, release <-chan struct{}) mcpcore.Tool[taskIn, said] {
	return mcpcore.Tool[taskIn, said]{
		Name: name, Description: "A job.", Task: support,
		Errors: []mcpcore.Failure{taskNoMatch, taskUpstream},
		Handler: func(ctx *mcpcore.Context, in taskIn) (said, error) {
			if release != nil {
				select {
				case <-release:
				case <-ctx.Done():
					return said{}, ctx.Err()
				}
			}
			switch in.Mode {
			case "fail":
				return said{}, ctx.Fail(taskNoMatch, "No article matches PMID 1.", ctx.RecoveryFor(taskNoMatch))
			case "service":
				return said{}, ctx.FailFrom(mcperr.ServiceUnavailable("NCBI is unreachable", mcpcore.RecoveryFor(ctx, taskUpstream)))
			case "panic":
				panic("boom")
			case "huge":
				return said{Text: strings.Repeat("x", 2<<20)}, nil
			case "roots":
				return said{}, ctx.RequireClient(mcpcore.CapabilityRoots)
			}
			return said{Text: "computed " + ctx.TaskID()}, nil
		},
	}
}

var taskIDPattern = regexp.MustCompile(`^[A-Z2-7]{26}$`)

// isoTime is a createdAt or lastUpdatedAt as the extension has it.
var isoTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// callTask calls tool with the extension declared and returns the
// CreateTaskResult, checked flat.
func callTask(t testing.TB, endpoint, tool string, args map[string]any, token string) map[string]any {
	t.Helper()
	a := wireCall{method: "tools/call", params: map[string]any{"name": tool, "arguments": args}, declare: true, token: token}.send(t, endpoint)
	if a.err != nil {
		t.Fatalf("tools/call %s: %s", tool, a.err)
	}
	created := object(t, a.result)
	if created["resultType"] != "task" {
		t.Fatalf("tools/call %s did not become a task: %s", tool, a.result)
	}
	return created
}

// getTask reads a task.
func getTask(t testing.TB, endpoint, id, token string) wireAnswer {
	t.Helper()
	return wireCall{method: "tasks/get", params: map[string]any{"taskId": id}, declare: true, token: token}.send(t, endpoint)
}

// settled polls a task until its status is want, and returns it.
func settled(t testing.TB, endpoint, id, token, want string) map[string]any {
	t.Helper()
	var last map[string]any
	mcptest.WaitFor(t, "task status "+want, func() bool {
		a := getTask(t, endpoint, id, token)
		if a.err != nil {
			t.Fatalf("tasks/get: %s", a.err)
		}
		last = object(t, a.result)
		if s := last["status"]; s != want && (s == "completed" || s == "failed" || s == "cancelled") {
			t.Fatalf("task ended %v, want %s: %v", s, want, last)
		}
		return last["status"] == want
	})
	return last
}

// TestTaskCreateTaskResultIsFlat: a call still running after its window
// is answered with a flat CreateTaskResult (no task, result, error,
// inputRequests or requestState), with ISO times and positive integer
// ttlMs and pollIntervalMs; tasks/get reads it working, then completed with
// the result inlined, resultType complete.
func TestTaskCreateTaskResultIsFlat(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	endpoint := taskServer(t, nil, jobTool("slow", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: 10 * time.Millisecond}, release))
	created := callTask(t, endpoint, "slow", nil, "")
	for _, k := range []string{"task", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval"} {
		if _, ok := created[k]; ok {
			t.Errorf("CreateTaskResult has %q: %v", k, created)
		}
	}
	id, _ := created["taskId"].(string)
	if !taskIDPattern.MatchString(id) || created["status"] != "working" {
		t.Errorf("CreateTaskResult: %v", created)
	}
	for _, k := range []string{"createdAt", "lastUpdatedAt"} {
		if s, _ := created[k].(string); !isoTime.MatchString(s) {
			t.Errorf("%s = %v", k, created[k])
		}
	}
	if created["ttlMs"] != float64(3600000) || created["pollIntervalMs"] != float64(1000) {
		t.Errorf("ttlMs, pollIntervalMs = %v, %v", created["ttlMs"], created["pollIntervalMs"])
	}
	working := object(t, getTask(t, endpoint, id, "").result)
	if working["resultType"] != "complete" || working["status"] != "working" || working["taskId"] != id {
		t.Errorf("tasks/get while it runs: %v", working)
	}
	close(release)
	done := settled(t, endpoint, id, "", "completed")
	result, _ := done["result"].(map[string]any)
	if text := result["structuredContent"].(map[string]any)["text"]; text != "computed "+id {
		t.Errorf("result: %v", done)
	}
	if _, ok := result["_meta"]; ok {
		t.Errorf("the inlined result carries _meta: %v", result)
	}
	if _, ok := done["error"]; ok {
		t.Errorf("a completed task has an error: %v", done)
	}
}

// TestTaskQuickCallIsAnsweredAtOnce: an optional task tool that ends
// within its window answers the plain result, as does any call of a
// request that did not declare the extension, however long it runs.
func TestTaskQuickCallIsAnsweredAtOnce(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	endpoint := taskServer(t, nil,
		jobTool("quick", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: time.Minute}, nil),
		jobTool("slow", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: time.Millisecond}, release))
	a := wireCall{method: "tools/call", params: map[string]any{"name": "quick"}, declare: true}.send(t, endpoint)
	if r := object(t, a.result); r["resultType"] != "complete" || r["taskId"] != nil {
		t.Errorf("quick call: %s", a.result)
	}
	go func() { time.Sleep(20 * time.Millisecond); close(release) }()
	a = wireCall{method: "tools/call", params: map[string]any{"name": "slow"}}.send(t, endpoint)
	if r := object(t, a.result); r["resultType"] != "complete" || r["taskId"] != nil || r["structuredContent"] == nil {
		t.Errorf("a slow call without the extension: %s", a.result)
	}
}

// TestTaskDeclaredFailureIsCompletedByteIdentical: a task that ends in
// ctx.Fail, a classified service error, a panic or an answer over the
// bound is completed, with a result whose content, structuredContent and
// isError are the bytes the same call answers synchronously.
func TestTaskDeclaredFailureIsCompletedByteIdentical(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{MaxResultBytes: 1 << 20}},
		jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce}, nil))
	for _, mode := range []string{"fail", "service", "panic", "huge"} {
		sync := wireCall{method: "tools/call", params: map[string]any{"name": "job", "arguments": map[string]any{"mode": mode}}}.send(t, endpoint)
		if sync.err != nil {
			t.Fatalf("%s: synchronous call: %s", mode, sync.err)
		}
		created := callTask(t, endpoint, "job", map[string]any{"mode": mode}, "")
		done := settled(t, endpoint, created["taskId"].(string), "", "completed")
		var want, got map[string]json.RawMessage
		_ = json.Unmarshal(sync.result, &want)
		raw, _ := json.Marshal(done["result"])
		_ = json.Unmarshal(raw, &got)
		// Compared as the bytes were sent: re-read through one decoder.
		for _, k := range []string{"content", "structuredContent", "isError"} {
			if !bytes.Equal(compact(t, want[k]), compact(t, got[k])) || want[k] == nil {
				t.Errorf("%s: %s: synchronous %.300s, task %.300s", mode, k, want[k], got[k])
			}
		}
		if string(want["isError"]) != "true" {
			t.Errorf("%s: not an error result: %.300s", mode, sync.result)
		}
	}
}

// compact re-encodes raw JSON in one canonical form.
func compact(t testing.TB, raw json.RawMessage) []byte {
	t.Helper()
	if raw == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return b
}

// TestTaskProtocolErrorIsFailed: a task whose call ends in a JSON-RPC
// protocol error (a client capability it needs) is failed, with the error
// object and no result.
func TestTaskProtocolErrorIsFailed(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, nil, jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, nil))
	created := callTask(t, endpoint, "job", map[string]any{"mode": "roots"}, "")
	done := settled(t, endpoint, created["taskId"].(string), "", "failed")
	if _, ok := done["result"]; ok {
		t.Errorf("a failed task has a result: %v", done)
	}
	want := `{"code":-32021,"data":{"requiredCapabilities":{"roots":{}}},"message":"This request needs the client capabilities roots, which the client did not declare."}`
	if got, _ := json.Marshal(done["error"]); string(got) != want {
		t.Errorf("error = %s, want %s", got, want)
	}
	if done["statusMessage"] != "This request needs the client capabilities roots, which the client did not declare." {
		t.Errorf("statusMessage = %v", done["statusMessage"])
	}
}

// TestTaskNegotiationPerRequest: without the extension in the request's
// own _meta, a call is synchronous, tasks/* are refused with -32021 and a
// tool that runs only as a task with -32021 and data; under 2025-11-25,
// the experimental utility's rules hold instead. The capability is advertised, and tools/list
// publishes each tool's mode.
func TestTaskNegotiationPerRequest(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, nil,
		jobTool("required", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, nil),
		jobTool("optional", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce}, nil))
	a := wireCall{method: "tools/call", params: map[string]any{"name": "required"}}.send(t, endpoint)
	want := `{"code":-32021,"message":"Tool \"required\" runs only as a task, and this request did not declare the extension io.modelcontextprotocol/tasks.","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`
	if string(a.err) != want || a.status != 400 {
		t.Errorf("a required task tool without the extension: %d %s, want 400 %s", a.status, a.err, want)
	}
	a = wireCall{method: "tools/call", params: map[string]any{"name": "optional"}}.send(t, endpoint)
	if r := object(t, a.result); r["resultType"] != "complete" || r["taskId"] != nil {
		t.Errorf("an optional task tool without the extension: %s", a.result)
	}
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		a := wireCall{method: m, params: map[string]any{"taskId": "AAAAAAAAAAAAAAAAAAAAAAAAAA"}}.send(t, endpoint)
		want := `{"code":-32021,"message":"` + m + ` needs the client capability extensions[\"io.modelcontextprotocol/tasks\"], which this request did not declare.","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`
		if string(a.err) != want {
			t.Errorf("%s without the extension: %s, want %s", m, a.err, want)
		}
		// Under 2025-11-25 the experimental utility's methods (see
		// task_legacy_test.go): it has no tasks/update.
		a = wireCall{method: m, params: map[string]any{"taskId": "AAAAAAAAAAAAAAAAAAAAAAAAAA"}, version: "2025-11-25"}.send(t, endpoint)
		if e := object(t, a.err); e["code"] != float64(-32601) && m == "tasks/update" || e["code"] != float64(-32602) && m != "tasks/update" {
			t.Errorf("%s under 2025-11-25: %s", m, a.err)
		}
		a = wireCall{method: m, params: map[string]any{"taskId": "AAAAAAAAAAAAAAAAAAAAAAAAAA"}, declare: true}.send(t, endpoint)
		if string(a.err) != `{"code":-32602,"message":"Unknown task: no task with this id is visible to this caller; it may have expired."}` {
			t.Errorf("%s of an unknown id: %s", m, a.err)
		}
	}
	for _, m := range []string{"tasks/result", "tasks/list"} {
		a := wireCall{method: m, params: map[string]any{"taskId": "AAAAAAAAAAAAAAAAAAAAAAAAAA"}, declare: true}.send(t, endpoint)
		if e := object(t, a.err); e["code"] != float64(-32601) {
			t.Errorf("%s: %s", m, a.err)
		}
	}
	// 2025-11-25's utility: a required tool called without params.task.
	a = wireCall{method: "tools/call", params: map[string]any{"name": "required"}, version: "2025-11-25"}.send(t, endpoint)
	if e := object(t, a.err); e["code"] != float64(-32601) {
		t.Errorf("a required task tool under 2025-11-25: %s", a.err)
	}
	a = wireCall{method: "server/discover", params: map[string]any{}}.send(t, endpoint)
	caps, _ := object(t, a.result)["capabilities"].(map[string]any)
	if ext, _ := caps["extensions"].(map[string]any); ext == nil || ext["io.modelcontextprotocol/tasks"] == nil || caps["tasks"] != nil || caps["logging"] == nil {
		t.Errorf("capabilities: %s", a.result)
	}
	a = wireCall{method: "tools/list", params: map[string]any{}}.send(t, endpoint)
	var list struct {
		Tools []struct {
			Name string         `json:"name"`
			Meta map[string]any `json:"_meta"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(a.result, &list)
	for _, tool := range list.Tools {
		if tool.Meta["mcpcore/task"] != tool.Name {
			t.Errorf("tools/list: %s has _meta %v", tool.Name, tool.Meta)
		}
	}
}

// TestTaskIDsAreMalformedAlike: an id the server could not have issued is
// unknown, answered as any unknown id, never echoed.
func TestTaskIDsAreMalformedAlike(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, nil, jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, nil))
	for _, id := range []string{"abc", strings.Repeat("A", 65), "<script>"} {
		a := getTask(t, endpoint, id, "")
		if string(a.err) != `{"code":-32602,"message":"Unknown task: no task with this id is visible to this caller; it may have expired."}` {
			t.Errorf("tasks/get %q: %s", id, a.err)
		}
	}
}

var _ = errors.New

// countingStore is a task store that counts the tasks created in it.
type countingStore struct {
	fleet.TaskStore
	created atomic.Int64
}

func (s *countingStore) Create(ctx context.Context, t fleet.Task) (fleet.Task, error) {
	s.created.Add(1)
	return s.TaskStore.Create(ctx, t)
}

// TestTaskRefusalsBeforeTask: what the pipeline refuses (a rate limit,
// invalid arguments, a scope) is answered within the request, and no task
// is created.
func TestTaskRefusalsBeforeTask(t *testing.T) {
	t.Parallel()
	store := &countingStore{TaskStore: fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	limited := jobTool("limited", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, nil)
	limited.RateLimit = mcpcore.RateLimit{Calls: 1, Per: time.Hour}
	strict := mcpcore.Tool[struct {
		N int `json:"n" minimum:"1"`
	}, said]{Name: "strict", Description: "Strict.", Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
		Handler: func(*mcpcore.Context, struct {
			N int `json:"n" minimum:"1"`
		}) (said, error) {
			return said{}, nil
		}}
	endpoint := taskServer(t, &mcpcore.ServerOptions{Tasks: store}, limited, strict)
	callTask(t, endpoint, "limited", nil, "")
	a := wireCall{method: "tools/call", params: map[string]any{"name": "limited"}, declare: true}.send(t, endpoint)
	if r := object(t, a.result); r["isError"] != true || r["taskId"] != nil || !strings.Contains(string(a.result), "-32003") {
		t.Errorf("over the rate limit: %s", a.result)
	}
	a = wireCall{method: "tools/call", params: map[string]any{"name": "strict", "arguments": map[string]any{"n": 0}}, declare: true}.send(t, endpoint)
	if r := object(t, a.result); r["isError"] != true || r["taskId"] != nil || !strings.Contains(string(a.result), `"code":-32007`) {
		t.Errorf("invalid arguments: %s", a.result)
	}
	if n := store.created.Load(); n != 1 {
		t.Errorf("%d tasks created, want the one admitted", n)
	}
}

// TestTaskCancelWins: tasks/cancel is acked at once with
// {"resultType":"complete"}, the task settles cancelled although its
// handler returns a result after, the handler's context is cancelled, and
// cancelling an ended task gets the same ack.
func TestTaskCancelWins(t *testing.T) {
	t.Parallel()
	release, sawCancel := make(chan struct{}), make(chan struct{})
	stubborn := mcpcore.Tool[taskIn, said]{Name: "stubborn", Description: "Ignores cancellation.",
		Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
		Handler: func(ctx *mcpcore.Context, _ taskIn) (said, error) {
			<-ctx.Done()
			close(sawCancel)
			<-release
			return said{Text: "late"}, nil
		}}
	endpoint := taskServer(t, nil, stubborn)
	id := callTask(t, endpoint, "stubborn", nil, "")["taskId"].(string)
	ack := wireCall{method: "tasks/cancel", params: map[string]any{"taskId": id}, declare: true}.send(t, endpoint)
	checkAck(t, ack)
	select {
	case <-sawCancel:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	close(release)
	done := settled(t, endpoint, id, "", "cancelled")
	if _, ok := done["result"]; ok {
		t.Errorf("a cancelled task has a result: %v", done)
	}
	time.Sleep(20 * time.Millisecond) // room for a late write the store must refuse
	if again := object(t, getTask(t, endpoint, id, "").result); again["status"] != "cancelled" {
		t.Errorf("after the late result: %v", again)
	}
	checkAck(t, wireCall{method: "tasks/cancel", params: map[string]any{"taskId": id}, declare: true}.send(t, endpoint))
}

// checkAck asserts an answer is the extension's bare ack.
func checkAck(t testing.TB, a wireAnswer) {
	t.Helper()
	if a.err != nil {
		t.Fatalf("ack: %s", a.err)
	}
	r := object(t, a.result)
	delete(r, "_meta") // the SDK's serverInfo
	if len(r) != 1 || r["resultType"] != "complete" {
		t.Errorf("ack = %s", a.result)
	}
}

// TestTaskOtherPrincipalIsUnknown: a task is its creator's: another
// authenticated subject gets exactly the answer of an unknown id, on every
// method, and cannot cancel it.
func TestTaskOtherPrincipalIsUnknown(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	opts := authedOptions(t, map[string]string{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": testSecret})
	endpoint := taskServer(t, opts, jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, release))
	alice, mallory := tokenFor(t, "alice"), tokenFor(t, "mallory")
	id := callTask(t, endpoint, "job", nil, alice)["taskId"].(string)
	unknown := wireCall{method: "tasks/get", params: map[string]any{"taskId": "AAAAAAAAAAAAAAAAAAAAAAAAAA"}, declare: true, token: mallory}.send(t, endpoint)
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		a := wireCall{method: m, params: map[string]any{"taskId": id, "inputResponses": map[string]any{}}, declare: true, token: mallory}.send(t, endpoint)
		if !bytes.Equal(a.err, unknown.err) || a.status != unknown.status {
			t.Errorf("%s of alice's task by mallory: %d %s, want %d %s", m, a.status, a.err, unknown.status, unknown.err)
		}
	}
	if got := object(t, getTask(t, endpoint, id, alice).result); got["status"] != "working" {
		t.Errorf("alice's task: %v", got)
	}
}

// TestTaskTTL: a task still running at its TTL is cancelled and ends
// failed with ServiceUnavailable, retryable; it stays readable after.
func TestTaskTTL(t *testing.T) {
	t.Parallel()
	endpoint := taskServer(t, nil, jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, TTL: 50 * time.Millisecond}, make(chan struct{})))
	id := callTask(t, endpoint, "job", nil, "")["taskId"].(string)
	done := settled(t, endpoint, id, "", "failed")
	e, _ := done["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if e["code"] != float64(mcperr.CodeServiceUnavailable) || data["retryable"] != true {
		t.Errorf("a task past its TTL: %v", done)
	}
	if ttl, _ := done["ttlMs"].(float64); ttl < 60000 {
		t.Errorf("ttlMs %v does not cover the retention of an ended task", done["ttlMs"])
	}
}

// TestTaskShutdown: a shutdown waits for tasks within its grace: one that
// ends within it is completed, one that outlasts it failed, retryable.
func TestTaskShutdown(t *testing.T) {
	t.Parallel()
	store := fleet.NewLocalTasks(fleet.LocalTasksOptions{})
	quick, started := make(chan struct{}), make(chan struct{}, 2)
	short := mcpcore.Tool[taskIn, said]{Name: "short", Description: "Ends within the grace.", Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
		Handler: func(ctx *mcpcore.Context, _ taskIn) (said, error) {
			started <- struct{}{}
			<-quick
			return said{Text: "done"}, nil
		}}
	long := jobTool("long", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, make(chan struct{}))
	srv, _ := newServer(t, &mcpcore.ServerOptions{Tasks: store, Config: mcpcore.Config{Stateless: true}}, short, long)
	endpoint := serveHTTP(t, srv)
	shortID := callTask(t, endpoint, "short", nil, "")["taskId"].(string)
	longID := callTask(t, endpoint, "long", nil, "")["taskId"].(string)
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	go func() { time.Sleep(50 * time.Millisecond); close(quick) }()
	_ = srv.Shutdown(ctx)
	got, err := store.Get(context.Background(), shortID, "")
	if err != nil || got.Status != fleet.TaskCompleted || !strings.Contains(string(got.Outcome), "done") {
		t.Errorf("the task within the grace: %+v, %v", got, err)
	}
	got, err = store.Get(context.Background(), longID, "")
	if err != nil || got.Status != fleet.TaskFailed || !strings.Contains(string(got.Outcome), `"retryable":true`) ||
		!strings.Contains(string(got.Outcome), `"code":-32000`) {
		t.Errorf("the task past the grace: %+v %s, %v", got, got.Outcome, err)
	}
}

// TestTaskHangUpDoesNotCancel: the request that started a task ends (its
// answer sent, its connection closed) without cancelling the task.
func TestTaskHangUpDoesNotCancel(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	endpoint := taskServer(t, nil, jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: 5 * time.Millisecond}, release))
	id := callTask(t, endpoint, "job", nil, "")["taskId"].(string)
	http.DefaultClient.CloseIdleConnections()
	time.Sleep(20 * time.Millisecond) // room for a cancellation that must not come
	close(release)
	done := settled(t, endpoint, id, "", "completed")
	if !strings.Contains(mustString(done["result"]), "computed "+id) {
		t.Errorf("after the hang-up: %v", done)
	}
}

func mustString(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestTaskCap: with MaxTasks running, a tool that runs only as a task is
// refused as retryable before its handler runs, and one that may is
// answered within its request.
func TestTaskCap(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	endpoint := taskServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{MaxTasks: 1}},
		jobTool("held", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, release),
		jobTool("optional", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce}, nil))
	callTask(t, endpoint, "held", nil, "")
	a := wireCall{method: "tools/call", params: map[string]any{"name": "held"}, declare: true}.send(t, endpoint)
	if r := object(t, a.result); r["isError"] != true || !strings.Contains(string(a.result), `"code":-32003`) || !strings.Contains(string(a.result), `"retryable":true`) {
		t.Errorf("a required task over the cap: %s", a.result)
	}
	a = wireCall{method: "tools/call", params: map[string]any{"name": "optional"}, declare: true}.send(t, endpoint)
	if r := object(t, a.result); r["resultType"] != "complete" || !strings.Contains(string(a.result), `"text":"computed "`) {
		t.Errorf("an optional task over the cap: %s", a.result)
	}
}

// TestTaskDefinitionIsChecked: NewServer refuses a Task it cannot honour,
// and a TTL over a day, in the definition or the configuration.
func TestTaskDefinitionIsChecked(t *testing.T) {
	t.Parallel()
	for _, support := range []mcpcore.TaskSupport{
		{Mode: mcpcore.TaskNever, TTL: time.Minute},
		{Mode: 7},
		{Mode: mcpcore.TaskOptional, After: -2},
		{Mode: mcpcore.TaskOptional, TTL: 25 * time.Hour},
		{Mode: mcpcore.TaskOptional, PollInterval: -1},
	} {
		if _, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, nil, jobTool("job", support, nil)); err == nil || !strings.Contains(err.Error(), `tool "job"`) {
			t.Errorf("%+v: %v", support, err)
		}
	}
	if _, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, &mcpcore.ServerOptions{Config: mcpcore.Config{TaskTTL: 25 * time.Hour}}); err == nil ||
		!strings.Contains(err.Error(), "MCP_TASK_TTL") {
		t.Errorf("a TTL of 25h: %v", err)
	}
}

// goneStore is a task store that says the replica "gone" stopped: its
// tasks read with OwnerGone, as the Redis store reads an owner whose
// presence has passed.
type goneStore struct{ *fleet.LocalTasks }

func (s goneStore) Get(ctx context.Context, id, principal string) (fleet.Task, error) {
	t, err := s.LocalTasks.Get(ctx, id, principal)
	t.OwnerGone = err == nil && t.Owner == "gone"
	return t, err
}

// TestTaskOfAGoneReplicaEndsFailed: tasks/get of a task whose replica
// stopped ends it failed with ServiceUnavailable, retryable, so that the
// client calls again; a task its owner still runs, or one already ended,
// is read as it stands.
func TestTaskOfAGoneReplicaEndsFailed(t *testing.T) {
	t.Parallel()
	store := goneStore{fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	endpoint := taskServer(t, &mcpcore.ServerOptions{Tasks: store}, jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, make(chan struct{})))
	create := func(id, owner string, status fleet.TaskStatus) string {
		t.Helper()
		task := fleet.Task{ID: id, Tool: "job",
			Owner: owner, Status: status, TTL: time.Hour, PollInterval: time.Second}
		if status == fleet.TaskCompleted {
			task.Outcome = json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`)
		}
		got, err := store.Create(context.Background(), task)
		if err != nil {
			t.Fatal(err)
		}
		return got.ID
	}
	gone := create("GONEWORKINGAAAAAAAAAAAAAAA", "gone", fleet.TaskWorking)
	a := getTask(t, endpoint, gone, "")
	if a.err != nil {
		t.Fatalf("tasks/get: %s", a.err)
	}
	got := object(t, a.result)
	e, _ := got["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if got["status"] != "failed" || e["code"] != float64(mcperr.CodeServiceUnavailable) || data["retryable"] != true ||
		got["statusMessage"] != "The server replica running this task stopped before it finished; call the tool again." {
		t.Errorf("a task whose replica stopped: %s", a.result)
	}
	if rec, _ := store.LocalTasks.Get(context.Background(), gone, ""); rec.Status != fleet.TaskFailed {
		t.Errorf("the store holds it %s, want failed", rec.Status)
	}
	for _, c := range []struct {
		id, owner string
		status    fleet.TaskStatus
	}{{"ALIVEWORKINGAAAAAAAAAAAAAA", "alive", fleet.TaskWorking}, {"GONECOMPLETEDAAAAAAAAAAAAA", "gone", fleet.TaskCompleted}} {
		id := create(c.id, c.owner, c.status)
		if got := object(t, getTask(t, endpoint, id, "").result); got["status"] != string(c.status) {
			t.Errorf("a %s task of replica %q read as %v, want as it stands", c.status, c.owner, got["status"])
		}
	}
}
