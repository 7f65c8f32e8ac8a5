package mcpcore_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// deafStore is a task store whose Watch delivers nothing, as a Redis whose
// pub/sub message was lost: the owner learns of a change made elsewhere only
// by reading the task again.
type deafStore struct{ fleet.TaskStore }

func (deafStore) Watch(func(id string)) (stop func()) { return func() {} }

// lateTool waits for its context to end, notes its cause, then waits
// for release and returns a result anyway: a late result.
func lateTool(cause *atomic.Pointer[string], release <-chan struct{}) mcpcore.Tool[taskIn, said] {
	return mcpcore.Tool[taskIn, said]{Name: "stubborn", Description: "Ignores cancellation.",
		Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
		Handler: func(ctx *mcpcore.Context, _ taskIn) (said, error) {
			<-ctx.Done()
			why := context.Cause(ctx).Error()
			cause.Store(&why)
			<-release
			return said{Text: "late"}, nil
		}}
}

// TestSignalLostOnlyDelays: a task cancelled by another replica (written to
// the store, not through this server) whose signal never arrives still has
// its handler cancelled, as the client cancelling it: the owner re-reads
// the tasks it runs.
func TestSignalLostOnlyDelays(t *testing.T) {
	t.Parallel()
	store := deafStore{fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	var cause atomic.Pointer[string]
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	endpoint := taskServer(t, &mcpcore.ServerOptions{Tasks: store}, lateTool(&cause, release))
	id := callTask(t, endpoint, "stubborn", nil, "")["taskId"].(string)
	if err := store.Cancel(context.Background(), id, "", "Cancelled by the client."); err != nil {
		t.Fatal(err)
	}
	mcptest.WaitFor(t, "the handler's cancellation", func() bool { return cause.Load() != nil })
	if why := *cause.Load(); !strings.Contains(why, "cancelled the task") {
		t.Errorf("the handler's context ended with %q, want the client's cancellation", why)
	}
}

// TestTaskAbandonedLateResultDropped: a task another replica ended failed
// because this one looked gone (paused past its presence) has its handler
// cancelled on the next re-read; the result it still returns is dropped,
// the record stays failed, and one warning says so.
func TestTaskAbandonedLateResultDropped(t *testing.T) {
	t.Parallel()
	local := fleet.NewLocalTasks(fleet.LocalTasksOptions{})
	var cause atomic.Pointer[string]
	release := make(chan struct{})
	srv, logs := newServer(t, &mcpcore.ServerOptions{Tasks: deafStore{local}, RepeatWindow: time.Hour,
		Config: mcpcore.Config{Stateless: true}}, lateTool(&cause, release))
	endpoint := serveHTTP(t, srv)
	id := callTask(t, endpoint, "stubborn", nil, "")["taskId"].(string)
	outcome := json.RawMessage(`{"code":-32000,"message":"The server replica running this task stopped before it finished; call the tool again."}`)
	if _, err := local.Abandon(context.Background(), id, local.Self(), outcome, "The replica stopped."); err != nil {
		t.Fatal(err)
	}
	mcptest.WaitFor(t, "the handler's cancellation", func() bool { return cause.Load() != nil })
	if why := *cause.Load(); strings.Contains(why, "client cancelled") {
		t.Errorf("the handler of an abandoned task was told %q, as if the client cancelled it", why)
	}
	close(release)
	want := "dropped the late result of task " + id + ": it had already ended as failed"
	mcptest.WaitFor(t, "the warning of the dropped result", func() bool { return logs.Has(t, want) })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx) // flushes any summary of repeats
	n := 0
	for _, r := range logs.Records(t) {
		if msg, _ := r["msg"].(string); strings.Contains(msg, want) {
			n++
			if r["level"] != slog.LevelWarn.String() {
				t.Errorf("the warning is logged at %v", r["level"])
			}
		}
	}
	if n != 1 {
		t.Errorf("the dropped result was logged %d times, want once:\n%s", n, logs)
	}
	if got, _ := local.Get(context.Background(), id, ""); got.Status != fleet.TaskFailed || !strings.Contains(string(got.Outcome), "-32000") {
		t.Errorf("the late result changed the record: %s %s", got.Status, got.Outcome)
	}
}
