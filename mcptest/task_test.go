package mcptest_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

var noMatch = mcpcore.Failure{
	Reason:    "no_match",
	Code:      mcperr.CodeNotFound,
	When:      "No article matches the query.",
	Recovery:  "Broaden the query.",
	Retryable: mcpcore.NotRetryable,
}

type exportIn struct {
	Query string `json:"query"`
	// Wait is how long the export runs, in milliseconds, so that the
	// client polls a task still working.
	Wait int `json:"wait,omitempty"`
}

type exportOut struct {
	Exported int `json:"exported"`
}

// taskIDs notes the task id each call of a task tool ran as.
type taskIDs struct {
	mu  sync.Mutex
	ids []string
}

func (s *taskIDs) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = append(s.ids, id)
}

func (s *taskIDs) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ids...)
}

// exportTool is a task tool named name, of mode mode, that fails with
// no_match on the query "none" and notes in seen the task it ran as.
func exportTool(name string, support mcpcore.TaskSupport, seen *taskIDs) mcpcore.Tool[exportIn, exportOut] {
	return mcpcore.Tool[exportIn, exportOut]{
		Name:        name,
		Description: "Export the articles a query matches.",
		Errors:      []mcpcore.Failure{noMatch},
		Task:        support,
		Handler: func(ctx *mcpcore.Context, in exportIn) (exportOut, error) {
			select {
			case <-time.After(time.Duration(in.Wait) * time.Millisecond):
			case <-ctx.Done():
				return exportOut{}, ctx.Err()
			}
			seen.add(ctx.TaskID())
			if in.Query == "none" {
				return exportOut{}, ctx.Fail(noMatch, "No article matches "+in.Query+".", ctx.RecoveryFor(noMatch))
			}
			return exportOut{Exported: 3}, nil
		},
	}
}

// atOnce makes every call of a declaring client a task, polled at the
// client's shortest interval.
var atOnce = mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce, PollInterval: 10 * time.Millisecond}

// TestAssertFailureOnTaskTool: the kit's client takes the task the server
// answers with, polls it, and returns its result, on which AssertFailure
// works as on a result answered at once.
func TestAssertFailureOnTaskTool(t *testing.T) {
	seen := &taskIDs{}
	tool := exportTool("export_task_failure", atOnce, seen)
	c := mcptest.Start(t, mcpcore.Info{Name: "library"}, tool)

	res := c.CallTool(tool.Name, map[string]any{"query": "none", "wait": 250})
	mcptest.AssertFailure(t, res, noMatch, mcptest.DeclaredRecovery(), mcptest.Message("No article matches none."))

	ok := c.CallTool(tool.Name, map[string]any{"query": "sleep"})
	if ok.IsError || mcpclient.TaskOf(ok) != nil {
		t.Fatalf("result = %+v, want the task's result", ok)
	}
	if out, _ := ok.StructuredContent.(map[string]any); out["exported"] != float64(3) {
		t.Errorf("structuredContent = %v, want exported 3", ok.StructuredContent)
	}
	ids := seen.all()
	if len(ids) != 2 || ids[0] == "" || ids[1] == "" {
		t.Errorf("the handler ran as tasks %q, want two tasks", ids)
	}
}

// TestCoverageCountsTaskFailures: a task that completed with a declared
// failure counts once for its tool, however many times it was polled.
func TestCoverageCountsTaskFailures(t *testing.T) {
	seen := &taskIDs{}
	tool := exportTool("export_task_coverage", atOnce, seen)
	c := mcptest.Start(t, mcpcore.Info{Name: "library"}, tool)
	if got := mcptest.Observed(tool.Name)["no_match"]; got != 0 {
		t.Fatalf("Observed before any call = %d", got)
	}
	mcptest.AssertFailure(t, c.CallTool(tool.Name, map[string]any{"query": "none", "wait": 250}), noMatch)
	ids := seen.all()
	if len(ids) != 1 || ids[0] == "" {
		t.Fatalf("the handler ran as tasks %q, want one task", ids)
	}
	// Polled again after its end: still counted once.
	d, err := mcpclient.GetTask(context.Background(), c.Session, ids[0])
	if err != nil || d.Status != "completed" {
		t.Fatalf("tasks/get = %+v, %v", d, err)
	}
	if got := mcptest.Observed(tool.Name)["no_match"]; got != 1 {
		t.Errorf("Observed = %d, want the task's failure counted once", got)
	}
	cov, err := mcptest.CoverageOf(tool)
	if err != nil {
		t.Fatal(err)
	}
	if u := cov.Uncovered(); len(u) != 0 {
		t.Errorf("uncovered = %v, want the task's failure covering no_match", u)
	}
}

// TestTaskRequiredToolThroughTheKit: a tool that runs only as a task
// answers the kit's client through its task, and refuses a client that
// does not declare the extension (Options.NoTasks) with
// MissingClientCapability naming it.
func TestTaskRequiredToolThroughTheKit(t *testing.T) {
	seen := &taskIDs{}
	tool := exportTool("export_task_required", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, PollInterval: 10 * time.Millisecond}, seen)
	c := mcptest.Start(t, mcpcore.Info{Name: "library"}, tool)
	// Past the default After (250 ms), so the handler sees its task.
	res := c.CallTool(tool.Name, map[string]any{"query": "sleep", "wait": 400})
	if res.IsError {
		t.Fatalf("result = %+v", res)
	}
	if out, _ := res.StructuredContent.(map[string]any); out["exported"] != float64(3) {
		t.Errorf("structuredContent = %v, want exported 3", res.StructuredContent)
	}
	// Within After: the task is created already completed.
	mcptest.AssertFailure(t, c.CallTool(tool.Name, map[string]any{"query": "none"}), noMatch)
	if ids := seen.all(); len(ids) != 2 || ids[0] == "" {
		t.Errorf("the handler ran as tasks %q, want the first call a task", ids)
	}

	plain := mcptest.StartWith(t, mcpcore.Info{Name: "library"}, &mcptest.Options{NoTasks: true}, tool)
	_, err := plain.Call(tool.Name, map[string]any{"query": "sleep"}, nil)
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != int64(mcperr.CodeMissingClientCapability) {
		t.Fatalf("a client without the extension got %v, want MissingClientCapability", err)
	}
	e := mcpclient.FromRPC(err)
	required, _ := e.Data()["requiredCapabilities"].(map[string]any)
	extensions, _ := required["extensions"].(map[string]any)
	if _, ok := extensions[mcpclient.TasksExtension]; !ok {
		t.Errorf("data = %v, want requiredCapabilities.extensions[%q]", e.Data(), mcpclient.TasksExtension)
	}
	if n := len(seen.all()); n != 2 {
		t.Errorf("the handler ran %d times, want the refused call never to run it", n)
	}
}

type confirmation struct {
	OK bool `json:"ok"`
}

// TestTaskQuestionsAnsweredByTheKit: a question a task asks is answered by
// the kit's client with the handler of Options.Client, and the task ends
// with the answer.
func TestTaskQuestionsAnsweredByTheKit(t *testing.T) {
	var asked []string
	tool := mcpcore.Tool[exportIn, exportOut]{
		Name: "export_confirmed", Description: "Export once the user confirms.",
		Task: atOnce,
		Handler: func(ctx *mcpcore.Context, in exportIn) (exportOut, error) {
			c, err := mcpcore.Elicit[confirmation](ctx, "Export "+in.Query+"?", mcpcore.QuestionKey("confirm"))
			if err != nil {
				return exportOut{}, err
			}
			if !c.OK || ctx.TaskID() == "" {
				return exportOut{}, nil
			}
			return exportOut{Exported: 1}, nil
		},
	}
	c := mcptest.StartWith(t, mcpcore.Info{Name: "library"}, &mcptest.Options{Client: &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, r.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		}}}, tool)
	res := c.CallTool(tool.Name, map[string]any{"query": "soil"})
	if out, _ := res.StructuredContent.(map[string]any); res.IsError || out["exported"] != float64(1) {
		t.Errorf("result = %+v, want the export confirmed inside its task", res)
	}
	if len(asked) != 1 || asked[0] != "Export soil?" {
		t.Errorf("the client was asked %q, want the task's question once", asked)
	}
}
