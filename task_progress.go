package mcpcore

// Progress inside a task: no notifications/progress (the extension does not
// support them on tasks); each report becomes the task's statusMessage,
// written at most once per half poll interval.

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

// taskProgress is the throttle of one task's progress writes.
type taskProgress struct {
	mu      sync.Mutex
	written time.Time // when the last report was written
}

// reportTask makes a report of progress the statusMessage of the call's
// task, unless one was written less than half a poll interval ago: a
// dropped report costs nothing, and the next one says more. The write is
// made by the handler's goroutine, so that it lands before the runner's
// own changes of the task (its questions, its outcome).
func (c *Context) reportTask(done, total float64, message string) {
	tc := c.task
	id := c.TaskID()
	if id == "" || c.srv == nil || c.srv.taskStore == nil {
		return
	}
	now := time.Now()
	tc.progress.mu.Lock()
	if !tc.progress.written.IsZero() && now.Sub(tc.progress.written) < tc.support.PollInterval/2 {
		tc.progress.mu.Unlock()
		return
	}
	tc.progress.written = now
	tc.progress.mu.Unlock()
	msg := progressMessage(done, total, message)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c), taskStoreTimeout)
	defer cancel()
	s := c.srv
	if _, err := s.ownerUpdate(ctx, id, fleet.TaskChange{Message: &msg}); err != nil && !errchain.Is(err, fleet.ErrTaskEnded) {
		c.reqLog().LogAttrs(ctx, slog.LevelDebug, "mcpcore: the progress of a task could not be written",
			slog.String("taskId", id), slog.String("error", err.Error()))
	}
}

// progressMessage is the statusMessage of a report of progress: its
// message, scrubbed of secrets, else "3 of 7" for whole numbers of a known
// total, "42%" for others, and "3 done" when the total is unknown.
func progressMessage(done, total float64, message string) string {
	if message != "" {
		return redact.String(message)
	}
	switch {
	case !(total > 0) || math.IsInf(total, 0):
		return fmt.Sprintf("%g done", done)
	case done == math.Trunc(done) && total == math.Trunc(total):
		return fmt.Sprintf("%g of %g", done, total)
	}
	return fmt.Sprintf("%d%%", int(math.Min(done/total, 1)*100))
}
