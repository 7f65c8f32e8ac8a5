package mcpotel

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

type jobIn struct {
	Mode string `json:"mode,omitempty"`
}

type jobOut struct {
	Text string `json:"text"`
}

// jobGone is declared at warning, so that the classified series shows the
// declared failure for what it is.
var jobGone = mcpcore.Failure{Code: mcperr.CodeNotFound, Reason: "job_gone", When: "The job is gone.",
	Recovery: "Start another.", Severity: mcpcore.SeverityWarning}

// taskJob runs as a task from the start: "fail" ends with a declared
// failure; "stubborn" waits for its cancellation and then returns a result
// all the same, which the client never gets.
var taskJob = mcpcore.Tool[jobIn, jobOut]{
	Name: "job", Description: "A job.", Errors: []mcpcore.Failure{jobGone},
	Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce, PollInterval: mcpclient.MinPollInterval},
	Handler: func(ctx *mcpcore.Context, in jobIn) (jobOut, error) {
		if in.Mode == "stubborn" {
			<-ctx.Done()
			return jobOut{Text: "late"}, nil
		}
		return jobOut{}, ctx.Fail(jobGone, "Job 7 is gone.")
	},
}

// startTask calls the job as a task and returns the client, the answer
// (the task) and the task's id.
func startTask(t *testing.T, h *harness, mode string) (*mcptest.Client, *mcp.CallToolResult, string) {
	t.Helper()
	c := mcptest.StartWith(t, mcpcore.Info{Name: "otel-tasks", Version: "1"},
		&mcptest.Options{Server: &mcpcore.ServerOptions{Observer: h.tel}}, taskJob)
	res, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "job", Arguments: jobIn{Mode: mode}})
	if err != nil {
		t.Fatal(err)
	}
	task := mcpclient.TaskOf(res)
	if task == nil {
		t.Fatalf("the call was answered at once: %+v", res)
	}
	return c, res, task.TaskID
}

// taskSpans waits for the two spans of a task and checks what they share:
// the request's SERVER span ended at the boundary with the task's id, and
// the task's span, its child and linked to it, with the same id.
func taskSpans(t *testing.T, h *harness, id string) (req, task sdktrace.ReadOnlySpan) {
	t.Helper()
	mcptest.WaitFor(t, "the task's span", func() bool { return len(h.spans.Ended()) >= 2 })
	ended := h.spans.Ended()
	if len(ended) != 2 {
		t.Fatalf("%d spans, want the request's and the task's: %+v", len(ended), h.ended())
	}
	req, task = ended[0], ended[1]
	if v := viewOf(req); v.Name != "tools/call job" || v.Kind != "server" || v.Status != "Unset" ||
		attr(req, "mcp.task.id") != id {
		t.Errorf("request span %+v, want tools/call job, server, Unset, mcp.task.id=%s", v, id)
	}
	if v := viewOf(task); v.Name != "execute_tool job" || v.Kind != "internal" ||
		attr(task, "mcp.task.id") != id || attr(task, "gen_ai.tool.name") != "job" {
		t.Errorf("task span %+v, want execute_tool job, internal, mcp.task.id=%s", v, id)
	}
	links := task.Links()
	if len(links) != 1 || links[0].SpanContext.SpanID() != req.SpanContext().SpanID() {
		t.Errorf("task span links %+v, want one to the request's span %s", links, req.SpanContext().SpanID())
	}
	if task.Parent().SpanID() != req.SpanContext().SpanID() || task.SpanContext().TraceID() != req.SpanContext().TraceID() {
		t.Errorf("the task's span is not the request span's child in its trace")
	}
	if !task.EndTime().After(req.EndTime()) && !task.EndTime().Equal(req.EndTime()) {
		t.Errorf("the task's span ended before the request's")
	}
	return req, task
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.String()
		}
	}
	return ""
}

// countedOnce checks that the call is one data point in each series, with
// the final outcome: code name, code and the declared severity ("" none).
func countedOnce(t *testing.T, h *harness, codeName, code, severity string) {
	t.Helper()
	got := h.points(t)
	classified := "mcp.error.classified_code=" + code
	if severity != "" {
		classified += ",mcp.error.severity=" + severity
	}
	classified += ",operation=tool:job"
	for name, want := range map[string]map[string]string{
		"mcp.tool.calls":        {"mcp.tool.name=job,mcp.tool.success=false": "1"},
		"mcp.tool.duration":     {"mcp.tool.name=job,mcp.tool.success=false": "n=1"},
		"mcp.tool.errors":       {"mcp.tool.error_category=" + codeName + ",mcp.tool.name=job": "1"},
		"mcp.errors.classified": {classified: "1"},
		"mcp.requests.active":   {"": "0"},
	} {
		if d := diffPoints(map[string]map[string]string{name: got[name]}, map[string]map[string]string{name: want}); d != "" {
			t.Error(d)
		}
	}
	ops := got["mcp.server.operation.duration"]
	if len(ops) != 1 {
		t.Errorf("mcp.server.operation.duration: %v, want one point", ops)
	}
	for k, v := range ops {
		if v != "n=1" || !strings.Contains(k, "error.type="+codeName) {
			t.Errorf("mcp.server.operation.duration %s: %s, want n=1 with error.type=%s", k, v, codeName)
		}
	}
}

// TestTaskSpanLinkedAndCountedOnce: a call that becomes a task has two
// spans, the request's ending at the boundary with mcp.task.id and the
// task's, linked to it, ending with the final outcome; its metrics are
// recorded once, at the task's end, with that outcome: a declared failure
// at its declared severity, or the cancellation a client asked for even
// when the handler returned a result after it.
func TestTaskSpanLinkedAndCountedOnce(t *testing.T) {
	t.Run("declared failure", func(t *testing.T) {
		h := newHarness(t)
		c, created, id := startTask(t, h, "fail")
		res, err := mcpclient.AwaitTask(context.Background(), c.Session, "job", created)
		if err != nil {
			t.Fatal(err)
		}
		mcptest.AssertFailure(t, res, jobGone, mcptest.Message("Job 7 is gone."))
		_, task := taskSpans(t, h, id)
		if st := task.Status(); st.Code != codes.Error || st.Description != "Job 7 is gone." {
			t.Errorf("task span status %+v, want Error with the client's message", st)
		}
		if attr(task, "error.type") != "NotFound" || attr(task, "rpc.response.status_code") != "-32001" {
			t.Errorf("task span attributes %v, want the failure's code", task.Attributes())
		}
		countedOnce(t, h, "NotFound", strconv.Itoa(int(mcperr.CodeNotFound)), "warning")
	})
	t.Run("cancelled", func(t *testing.T) {
		h := newHarness(t)
		c, _, id := startTask(t, h, "stubborn")
		if err := mcpclient.CancelTask(context.Background(), c.Session, id); err != nil {
			t.Fatal(err)
		}
		_, task := taskSpans(t, h, id)
		if st := task.Status(); st.Code != codes.Error || attr(task, "error.type") != "RequestCancelled" {
			t.Errorf("task span status %+v, error.type %q: want Error, RequestCancelled", st, attr(task, "error.type"))
		}
		countedOnce(t, h, "RequestCancelled", strconv.Itoa(int(mcperr.CodeRequestCancelled)), "")
		got, err := mcpclient.GetTask(context.Background(), c.Session, id)
		if err != nil || got.Status != "cancelled" {
			t.Errorf("tasks/get: %+v %v, want cancelled", got, err)
		}
	})
}
