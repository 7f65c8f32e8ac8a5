package mcpcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
)

// yes is the form of the questions of these tests.
type yes struct {
	OK bool `json:"ok"`
}

// accept is a client's answer to a yes question.
func accept(ok bool) map[string]any {
	return map[string]any{"action": "accept", "content": map[string]any{"ok": ok}}
}

// withElicitation declares the elicitation capability, besides the
// extension.
var withElicitation = map[string]any{"elicitation": map[string]any{}}

// askingTool asks, as its input's mode says, one question ("one"), two at
// once ("two"), or one and then another under the same key ("reuse"),
// inside its task; runs counts its runs.
func askingTool(runs *atomic.Int64) mcpcore.Tool[taskIn, said] {
	return mcpcore.Tool[taskIn, said]{
		Name: "ask", Description: "Asks first.",
		Task: mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce},
		Handler: func(ctx *mcpcore.Context, in taskIn) (said, error) {
			runs.Add(1)
			switch in.Mode {
			case "two":
				a, errA := mcpcore.Elicit[yes](ctx, "A?", mcpcore.QuestionKey("a"))
				b, errB := mcpcore.Elicit[yes](ctx, "B?", mcpcore.QuestionKey("b"))
				if err := errors.Join(errA, errB); err != nil {
					return said{}, err
				}
				return said{Text: fmt.Sprintf("a=%t b=%t", a.OK, b.OK)}, nil
			case "reuse":
				if _, err := mcpcore.Elicit[yes](ctx, "First?", mcpcore.QuestionKey("k")); err != nil {
					return said{}, err
				}
				if _, err := mcpcore.Elicit[yes](ctx, "Second?", mcpcore.QuestionKey("k2")); err != nil {
					return said{}, err
				}
				// A third, under the first one's key: the handler's bug.
				if _, err := mcpcore.Elicit[struct {
					N int `json:"n"`
				}](ctx, "Third?", mcpcore.QuestionKey("k")); err != nil {
					return said{}, err
				}
				return said{Text: "unreachable"}, nil
			}
			ok, err := mcpcore.Elicit[yes](ctx, "Delete /tmp/x?", mcpcore.QuestionKey("confirm"))
			if err != nil {
				return said{}, err
			}
			return said{Text: fmt.Sprintf("deleted=%t", ok.OK)}, nil
		},
	}
}

// startAsking calls the asking tool in mode and returns its task's id, once
// it is input_required, and the task.
func startAsking(t *testing.T, endpoint, mode string) (string, map[string]any) {
	t.Helper()
	a := wireCall{method: "tools/call", params: map[string]any{"name": "ask", "arguments": map[string]any{"mode": mode}},
		declare: true, caps: withElicitation}.send(t, endpoint)
	created := object(t, a.result)
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || id == "" {
		t.Fatalf("%s: not a task: %s %s", mode, a.result, a.err)
	}
	return id, settled(t, endpoint, id, "", "input_required")
}

// update sends answers to a task, and checks the ack.
func update(t *testing.T, endpoint, id string, answers map[string]any) {
	t.Helper()
	checkAck(t, wireCall{method: "tasks/update", params: map[string]any{"taskId": id, "inputResponses": answers}, declare: true}.send(t, endpoint))
}

// questionKeys are the keys of a task's inputRequests, sorted.
func questionKeys(task map[string]any) []string {
	q, _ := task["inputRequests"].(map[string]any)
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestTaskInputRounds: a run of a task's handler that ends with questions
// makes the task input_required, with its questions in inputRequests as
// multi-round input has them; tasks/update answers them (a partial set
// keeps the rest outstanding, an unknown key is ignored), and the handler
// runs again with the answers, to completed. A key names one question over
// the task's life.
func TestTaskInputRounds(t *testing.T) {
	t.Parallel()
	var runs atomic.Int64
	endpoint := taskServer(t, nil, askingTool(&runs))

	t.Run("one question", func(t *testing.T) {
		id, task := startAsking(t, endpoint, "one")
		if got := questionKeys(task); len(got) != 1 || got[0] != "confirm" {
			t.Fatalf("inputRequests: %v", task)
		}
		want := `{"method":"elicitation/create","params":{"message":"Delete /tmp/x?","mode":"form","requestedSchema":{"properties":{"ok":{"type":"boolean"}},"required":["ok"],"type":"object"}}}`
		if got := mustString(task["inputRequests"].(map[string]any)["confirm"]); got != want {
			t.Errorf("the question: %s, want %s", got, want)
		}
		if task["statusMessage"] != "Waiting for the client's answer to: confirm" {
			t.Errorf("statusMessage: %v", task["statusMessage"])
		}
		for _, k := range []string{"result", "error", "requestState"} {
			if _, ok := task[k]; ok {
				t.Errorf("an input_required task has %q: %v", k, task)
			}
		}
		update(t, endpoint, id, map[string]any{"confirm": accept(true), "unknown-key": map[string]any{"ignored": true}})
		done := settled(t, endpoint, id, "", "completed")
		if !strings.Contains(mustString(done["result"]), `"text":"deleted=true"`) {
			t.Errorf("after the answer: %v", done)
		}
		if _, ok := done["inputRequests"]; ok || done["statusMessage"] != nil {
			t.Errorf("a completed task keeps its questions or their message: %v", done)
		}
	})

	t.Run("two at once, answered in parts", func(t *testing.T) {
		id, task := startAsking(t, endpoint, "two")
		if got := questionKeys(task); strings.Join(got, ",") != "a,b" {
			t.Fatalf("inputRequests: %v", task)
		}
		if task["statusMessage"] != "Waiting for the client's answers to: a, b" {
			t.Errorf("statusMessage: %v", task["statusMessage"])
		}
		update(t, endpoint, id, map[string]any{"a": accept(true)})
		task = object(t, getTask(t, endpoint, id, "").result)
		if task["status"] != "input_required" || strings.Join(questionKeys(task), ",") != "b" {
			t.Fatalf("after a partial answer: %v", task)
		}
		update(t, endpoint, id, map[string]any{"nobody-asked": accept(false), "a": accept(false)})
		task = object(t, getTask(t, endpoint, id, "").result)
		if task["status"] != "input_required" || strings.Join(questionKeys(task), ",") != "b" {
			t.Fatalf("after an unknown key and an answered one: %v", task)
		}
		before := runs.Load()
		update(t, endpoint, id, map[string]any{"b": accept(false)})
		done := settled(t, endpoint, id, "", "completed")
		if !strings.Contains(mustString(done["result"]), `"text":"a=true b=false"`) {
			t.Errorf("after both answers: %v", done)
		}
		if n := runs.Load() - before; n != 1 {
			t.Errorf("the handler ran %d times after the last answer, want once", n)
		}
	})

	t.Run("a key names one question", func(t *testing.T) {
		id, _ := startAsking(t, endpoint, "reuse")
		update(t, endpoint, id, map[string]any{"k": accept(true)})
		task := settled(t, endpoint, id, "", "input_required")
		if strings.Join(questionKeys(task), ",") != "k2" {
			t.Fatalf("the second round: %v", task)
		}
		update(t, endpoint, id, map[string]any{"k2": accept(true)})
		done := settled(t, endpoint, id, "", "completed")
		result := mustString(done["result"])
		if !strings.Contains(result, `"isError":true`) || !strings.Contains(result, `"code":-32603`) {
			t.Errorf("another question under an answered key: %v", done)
		}
	})
}

// TestTaskAfterMRTR: a tool that runs only as a task asks its question
// within the request, over multi-round input, before any task exists;
// the round with the answer becomes the task, whose result has it.
func TestTaskAfterMRTR(t *testing.T) {
	t.Parallel()
	type name struct {
		Name string `json:"name"`
	}
	tool := mcpcore.Tool[taskIn, said]{Name: "test_tool_with_task", Description: "Asks, then works.",
		Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
		Handler: func(ctx *mcpcore.Context, _ taskIn) (said, error) {
			n, err := mcpcore.Elicit[name](ctx, "Your name?", mcpcore.QuestionKey("user_name"))
			if err != nil {
				return said{}, err
			}
			return said{Text: "Hello, " + n.Name + "!"}, nil
		}}
	endpoint := taskServer(t, nil, tool)
	call := wireCall{method: "tools/call", params: map[string]any{"name": "test_tool_with_task"}, declare: true, caps: withElicitation}
	a := call.send(t, endpoint)
	round1 := object(t, a.result)
	state, _ := round1["requestState"].(string)
	if round1["resultType"] != "input_required" || round1["taskId"] != nil || state == "" || strings.Join(questionKeys(round1), ",") != "user_name" {
		t.Fatalf("round 1: %s %s", a.result, a.err)
	}
	call.params = map[string]any{"name": "test_tool_with_task", "requestState": state,
		"inputResponses": map[string]any{"user_name": map[string]any{"action": "accept", "content": map[string]any{"name": "Alice"}}}}
	a = call.send(t, endpoint)
	round2 := object(t, a.result)
	id, _ := round2["taskId"].(string)
	if round2["resultType"] != "task" || id == "" || round2["requestState"] != nil || round2["inputRequests"] != nil {
		t.Fatalf("round 2: %s %s", a.result, a.err)
	}
	done := settled(t, endpoint, id, "", "completed")
	if !strings.Contains(mustString(done["result"]), "Hello, Alice!") {
		t.Errorf("the task's result: %v", done)
	}
}

// TestTasksUpdateCostIsLinear: a tasks/update of 4 MiB of keys no question
// has costs about what one of a single 4 MiB answer does: each key is one
// look-up. CPU time is measured a few times and the least kept; the budget
// is generous.
func TestTasksUpdateCostIsLinear(t *testing.T) {
	const size = 4 << 20
	var runs atomic.Int64
	endpoint := taskServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{MaxBodyBytes: 2 * size}}, askingTool(&runs))
	id, _ := startAsking(t, endpoint, "one")
	head := `{"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}},"taskId":"` + id + `","inputResponses":{`
	var many strings.Builder
	many.WriteString(head)
	for i := 0; many.Len() < size; i++ {
		fmt.Fprintf(&many, `"k%d":{},`, i)
	}
	manyBody := strings.TrimSuffix(many.String(), ",") + `}}}`
	prefix, suffix := head+`"k":{"action":"accept","content":{"pad":"`, `"}}}}}`
	one := prefix + strings.Repeat("a", len(manyBody)-len(prefix)-len(suffix)) + suffix
	send := func(body string) time.Duration {
		least := time.Duration(1<<63 - 1)
		for range 3 {
			req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
			req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
				"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {"tasks/update"}, "Mcp-Name": {id}}
			start := cpuTime()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			least = min(least, cpuTime()-start)
			if resp.StatusCode != 200 || !bytes.Contains(raw, []byte(`"resultType":"complete"`)) {
				t.Fatalf("tasks/update of %d bytes: %d %.300s", len(body), resp.StatusCode, raw)
			}
		}
		return least
	}
	if len(one) != len(manyBody) {
		t.Fatalf("the bodies differ in size: %d, %d", len(one), len(manyBody))
	}
	manyCPU, oneCPU := send(manyBody), send(one)
	if ratio := float64(manyCPU) / float64(oneCPU); ratio > 10 {
		t.Errorf("tasks/update of %d bytes of unknown keys: %v of CPU, against %v for one answer of the same size: %.0f times as much, want at most 10",
			len(manyBody), manyCPU, oneCPU, ratio)
	} else {
		t.Logf("unknown keys %v of CPU, one answer %v: ratio %.2f", manyCPU, oneCPU, ratio)
	}
	if task := object(t, getTask(t, endpoint, id, "").result); task["status"] != "input_required" {
		t.Errorf("after unknown keys: %v", task)
	}
}

// TestTaskAnswersWithoutSignal: answers that reach the store without a
// word to the runner (as another replica's would, their signal lost) are
// still taken, by the runner's periodic re-read.
func TestTaskAnswersWithoutSignal(t *testing.T) {
	t.Parallel()
	var runs atomic.Int64
	store := fleet.NewLocalTasks(fleet.LocalTasksOptions{})
	endpoint := taskServer(t, &mcpcore.ServerOptions{Tasks: store}, askingTool(&runs))
	id, _ := startAsking(t, endpoint, "one")
	if err := store.Answer(context.Background(), id, "", map[string]json.RawMessage{"confirm": json.RawMessage(`{"action":"accept","content":{"ok":true}}`)}); err != nil {
		t.Fatal(err)
	}
	done := settled(t, endpoint, id, "", "completed")
	if !strings.Contains(mustString(done["result"]), `"text":"deleted=true"`) {
		t.Errorf("after the answer: %v", done)
	}
}
