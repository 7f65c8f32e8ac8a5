package mcpcore_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
)

// messageWrites is a task store that counts the changes of a message alone:
// the writes of progress reports.
type messageWrites struct {
	fleet.TaskStore
	n atomic.Int64
}

func (s *messageWrites) Update(ctx context.Context, id, owner string, c fleet.TaskChange) (fleet.Task, error) {
	if c.Status == "" && c.Message != nil {
		s.n.Add(1)
	}
	return s.TaskStore.Update(ctx, id, owner, c)
}

// TestTaskProgressIsStatusMessage: inside a task, Progress sends no
// notifications/progress; each report becomes the task's statusMessage
// ("3 of 7", "41%", the message itself), at most one store write per half
// poll interval.
func TestTaskProgressIsStatusMessage(t *testing.T) {
	t.Parallel()
	steps := make(chan struct{})
	reporter := func(name string, poll time.Duration, report func(*mcpcore.Context)) mcpcore.Tool[taskIn, said] {
		return mcpcore.Tool[taskIn, said]{Name: name, Description: "Reports progress.",
			Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce, PollInterval: poll},
			Handler: func(ctx *mcpcore.Context, _ taskIn) (said, error) {
				report(ctx)
				<-steps
				return said{Text: "done"}, nil
			}}
	}
	store := &messageWrites{TaskStore: fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	endpoint := taskServer(t, &mcpcore.ServerOptions{Tasks: store},
		reporter("whole", time.Hour, func(ctx *mcpcore.Context) {
			for i := range 100 {
				ctx.Progress(float64(3+i), 7, "")
			}
		}),
		reporter("part", time.Hour, func(ctx *mcpcore.Context) { ctx.Progress(0.5, 1.2, "") }),
		reporter("said", time.Millisecond, func(ctx *mcpcore.Context) {
			ctx.Progress(1, 10, "")
			time.Sleep(5 * time.Millisecond)
			ctx.Progress(2, 10, "Copying files")
		}))
	t.Cleanup(func() { close(steps) })
	for _, tc := range []struct{ tool, want string }{{"whole", "3 of 7"}, {"part", "41%"}, {"said", "Copying files"}} {
		a := wireCall{method: "tools/call", params: map[string]any{"name": tc.tool, "_meta": map[string]any{"progressToken": "p"}}, declare: true}.send(t, endpoint)
		if strings.Contains(string(a.result), "notifications/progress") {
			t.Errorf("%s: a progress notification: %s", tc.tool, a.result)
		}
		id, _ := object(t, a.result)["taskId"].(string)
		var last map[string]any
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if last = object(t, getTask(t, endpoint, id, "").result); last["statusMessage"] == tc.want {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if last["statusMessage"] != tc.want || last["status"] != "working" {
			t.Errorf("%s: the task reads %v, want statusMessage %q", tc.tool, last, tc.want)
		}
	}
	// 100 reports of "whole" and one of "part", each within its half hour;
	// "said" wrote one or two.
	if n := store.n.Load(); n < 3 || n > 4 {
		t.Errorf("%d progress writes, want 3 or 4", n)
	}
}
