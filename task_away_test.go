package mcpcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// awayStore is a task store whose backend can be taken away: then every
// call fails, as a store that does not answer, and Healthy says so.
type awayStore struct {
	*fleet.LocalTasks
	away atomic.Bool
}

var errAway = errors.New("the backend does not answer")

func (s *awayStore) Healthy() bool { return !s.away.Load() }

func (s *awayStore) Create(ctx context.Context, t fleet.Task) (fleet.Task, error) {
	if s.away.Load() {
		return fleet.Task{}, errAway
	}
	return s.LocalTasks.Create(ctx, t)
}

func (s *awayStore) Get(ctx context.Context, id, principal string) (fleet.Task, error) {
	if s.away.Load() {
		return fleet.Task{}, errAway
	}
	return s.LocalTasks.Get(ctx, id, principal)
}

func (s *awayStore) Update(ctx context.Context, id, owner string, c fleet.TaskChange) (fleet.Task, error) {
	if s.away.Load() {
		return fleet.Task{}, errAway
	}
	return s.LocalTasks.Update(ctx, id, owner, c)
}

func (s *awayStore) Answer(ctx context.Context, id, principal string, a map[string]json.RawMessage) error {
	if s.away.Load() {
		return errAway
	}
	return s.LocalTasks.Answer(ctx, id, principal, a)
}

func (s *awayStore) Cancel(ctx context.Context, id, principal, msg string) error {
	if s.away.Load() {
		return errAway
	}
	return s.LocalTasks.Cancel(ctx, id, principal, msg)
}

// TestTaskStoreAwayRefusesBeforeHandler: with the store away, a tool that
// runs only as a task is refused, ServiceUnavailable and retryable, before
// its handler runs; one that may be a task answers its plain result.
func TestTaskStoreAwayRefusesBeforeHandler(t *testing.T) {
	t.Parallel()
	store := &awayStore{LocalTasks: fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	store.away.Store(true)
	var runs atomic.Int64
	counted := jobTool("required", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, nil)
	inner := counted.Handler
	counted.Handler = func(ctx *mcpcore.Context, in taskIn) (said, error) { runs.Add(1); return inner(ctx, in) }
	endpoint := taskServer(t, &mcpcore.ServerOptions{Tasks: store}, counted,
		jobTool("optional", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce}, nil))

	a := wireCall{method: "tools/call", params: map[string]any{"name": "required"}, declare: true}.send(t, endpoint)
	if r := object(t, a.result); r["isError"] != true || !strings.Contains(string(a.result), `"code":-32000`) || !strings.Contains(string(a.result), `"retryable":true`) {
		t.Errorf("a required task with the store away: %s", a.result)
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("the handler ran %d times", n)
	}
	a = wireCall{method: "tools/call", params: map[string]any{"name": "optional"}, declare: true}.send(t, endpoint)
	if r := object(t, a.result); r["resultType"] != "complete" || !strings.Contains(string(a.result), `"text":"computed "`) {
		t.Errorf("an optional task with the store away: %s", a.result)
	}
}

// TestTaskShadowAnswersAndFlushes: with the store away, the owner answers
// tasks/get from its shadow (working, then its result), and writes the
// result to the store when it returns.
func TestTaskShadowAnswersAndFlushes(t *testing.T) {
	t.Parallel()
	store := &awayStore{LocalTasks: fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	release := make(chan struct{})
	endpoint := taskServer(t, &mcpcore.ServerOptions{Tasks: store}, jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired}, release))
	id := callTask(t, endpoint, "job", nil, "")["taskId"].(string)
	store.away.Store(true)
	if got := object(t, getTask(t, endpoint, id, "").result); got["status"] != "working" {
		t.Errorf("the owner read its task as %v with the store away", got)
	}
	close(release)
	done := settled(t, endpoint, id, "", "completed")
	if !strings.Contains(mustString(done["result"]), "computed "+id) {
		t.Errorf("the shadow's result: %v", done)
	}
	if rec, err := store.LocalTasks.Get(context.Background(), id, ""); err != nil || rec.Status.Terminal() {
		t.Fatalf("the store took a write while away: %+v, %v", rec, err)
	}
	store.away.Store(false)
	mcptest.WaitFor(t, "the result written to the store", func() bool {
		rec, err := store.LocalTasks.Get(context.Background(), id, "")
		return err == nil && rec.Status == fleet.TaskCompleted && strings.Contains(string(rec.Outcome), "computed "+id)
	})
}
