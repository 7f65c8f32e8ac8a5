package mcpcore

// The task store away: a call that may run synchronously does, one that can
// only run as a task is refused as retryable, before its handler runs when
// the store already said it is away (fleet.TaskStoreHealth), and the owner
// of a running task answers for it from its shadow (task_shadow.go).

import (
	"context"
	"errors"
	"log/slog"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// errStaySync tells a call that could not become a task to be answered
// when it ends, as any call.
var errStaySync = errors.New("mcpcore: the call is answered when it ends")

// taskStoreHealthy reports whether the task store takes its backend to
// answer; a store that cannot tell is taken to.
func (s *Server) taskStoreHealthy() bool {
	h, ok := s.taskStore.(fleet.TaskStoreHealth)
	return !ok || h.Healthy()
}

// taskRoom refuses a call of a tool that runs only as a task when no task
// can start: Config.MaxTasks run, or the task store is away.
func (s *Server) taskRoom() error {
	if s.taskRunner.full() {
		return s.tasksFull()
	}
	if !s.taskStoreHealthy() {
		return taskStoreRefusal(nil)
	}
	return nil
}

// taskStoreRefusal is the answer to a call of a tool that runs only as a
// task when the task store could not create it (err, nil when it was not
// tried): ServiceUnavailable, retryable, so that the client calls again.
func taskStoreRefusal(err error) error {
	msg := "The task store is unreachable, and this tool runs only as a task; retry in a moment."
	if errchain.Is(err, fleet.ErrTaskStoreFull) {
		msg = "The task store is full, and this tool runs only as a task; retry in a moment."
	}
	opts := []mcperr.Option{mcperr.WithData(map[string]any{"retryable": true})}
	if err != nil {
		opts = append(opts, mcperr.WithCause(err))
	}
	return mcperr.ServiceUnavailable(msg, opts...)
}

// taskStoreFailed is what a call that could not become a task, the store
// away (err nil: not tried) or failing with err, goes on with: a tool that
// runs only as a task is refused; one that may is answered when it ends
// (logged when the store was tried: the store logs its being away once).
func (s *Server) taskStoreFailed(c *callState, err error) error {
	if c.task.support.Mode == TaskRequired {
		return taskStoreRefusal(err)
	}
	if err != nil {
		c.ctx.reqLog().LogAttrs(context.WithoutCancel(c.ctx), slog.LevelWarn,
			"mcpcore: the call could not become a task; it is answered when it ends", slog.String("error", err.Error()))
	}
	return errStaySync
}
