package mcpcore

// The owner of tasks re-reads them: another replica's cancel, answers or
// abandon reach it through the store's Watch, a signal that may be lost; a
// loop re-reads every task this process runs once a second, so that a lost
// signal only delays what it told.

import (
	"context"
	"errors"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// taskReread is how often the owner reads again each task it runs.
const taskReread = time.Second

// errTaskAbandoned is the cause of a task another replica ended failed
// while it ran here: it found this replica's presence passed (it was
// paused). The task's failure is in the store already, so what its handler
// returns is dropped (see finishTask).
var errTaskAbandoned = errors.New("mcpcore: another replica ended the task failed, this replica having looked stopped")

// endedCause is what the handler of a task that ended without it, as
// status, is cancelled with: failed, it was abandoned; cancelled, or its
// record gone (""), it is the client's cancel, as it always was.
func endedCause(status fleet.TaskStatus) error {
	if status == fleet.TaskFailed || status == fleet.TaskCompleted {
		return errTaskAbandoned
	}
	return errTaskCancelled
}

// rereadTasks re-reads, once a second, every task running here, until
// none runs or the server shuts down: one loop per server, started by the
// first task (see taskRunner.add). The reads are sequential, each bounded
// by taskStoreTimeout, and a pass that outlasts the second delays the next
// (the ticker drops the ticks it missed), so the loop never has more than
// one read outstanding: N tasks cost N reads a second while the store
// answers, and a store away slows the passes, never piles them up.
func (s *Server) rereadTasks() {
	tick := time.NewTicker(taskReread)
	defer tick.Stop()
	for {
		select {
		case <-s.background.Done():
			s.taskRunner.rereadStopped()
			return
		case <-tick.C:
		}
		tasks, ended, ok := s.taskRunner.toReread()
		if !ok {
			return
		}
		for _, t := range tasks {
			if s.background.Err() != nil {
				break
			}
			s.rereadTask(t)
		}
		for _, sh := range ended {
			if s.background.Err() != nil {
				break
			}
			s.flushEnded(sh)
		}
	}
}

// rereadTask reads the running task t again: ended by someone else
// (cancelled, or abandoned as its replica looked gone), its handler is
// cancelled with the cause its status says; answered in full, the runner
// waiting for the answers is woken. A read that fails changes nothing:
// the next tells. A record not found is a store that lost it (a client's
// cancel keeps the record): it is re-created from the task's shadow.
// Changes kept in the shadow while the store was away are made first.
func (s *Server) rereadTask(t runningRef) {
	ctx, cancel := context.WithTimeout(s.background, taskStoreTimeout)
	defer cancel()
	if t.shadow != nil && t.shadow.waiting() {
		if ended, _ := t.shadow.flush(ctx, s.taskStore); ended != "" {
			t.cancel(endedCause(ended))
		}
		return
	}
	rec, err := s.taskStore.Get(ctx, t.id, t.principal)
	switch {
	case errchain.Is(err, fleet.ErrTaskNotFound) && t.shadow != nil:
		t.shadow.restore(ctx, s.taskStore)
	case err != nil:
	case rec.Status.Terminal():
		t.cancel(endedCause(rec.Status))
	case rec.Status == fleet.TaskWorking && len(rec.Answers) > 0 && t.wake != nil:
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
}

// flushEnded makes the final write of a task that ended here while the
// store was away, and forgets its shadow once made (or its TTL passed).
func (s *Server) flushEnded(sh *taskShadow) {
	ctx, cancel := context.WithTimeout(s.background, taskStoreTimeout)
	defer cancel()
	if _, done := sh.flush(ctx, s.taskStore); done {
		s.taskRunner.flushed(sh.id())
	}
}
