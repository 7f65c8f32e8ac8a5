package mcpcore

import (
	"context"
	"sync"

	"github.com/seed417024ea/mcpcore/fleet"
)

// taskRunner holds the tasks running in this process: the cap on their
// number (Config.MaxTasks), and how to cancel each.
type taskRunner struct {
	mu       sync.Mutex
	max      int
	reserved int // places taken by calls becoming tasks
	running  map[string]runningTask
	// ending counts the tasks whose outcome is not written yet, which a
	// shutdown waits for.
	ending sync.WaitGroup
}

// A runningTask is what the runner knows of one of its tasks.
type runningTask struct {
	cancel    context.CancelCauseFunc
	principal string
	wake      chan struct{} // see taskCall.wake
}

// wake tells the task id, if it runs here, to read its record again: it
// may have its answers. A wake already pending is enough.
func (r *taskRunner) wake(id string) {
	if t, ok := r.lookup(id); ok && t.wake != nil {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
}

func newTaskRunner(max int) *taskRunner {
	return &taskRunner{max: max, running: map[string]runningTask{}}
}

// full reports whether no task may start.
func (r *taskRunner) full() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.running)+r.reserved >= r.max
}

// reserve takes a place for a call about to become a task, if there is
// one; the call then either adds its task or releases the place.
func (r *taskRunner) reserve() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.running)+r.reserved >= r.max {
		return false
	}
	r.reserved++
	return true
}

func (r *taskRunner) release() {
	r.mu.Lock()
	r.reserved--
	r.mu.Unlock()
}

// add turns a reserved place into the running task id.
func (r *taskRunner) add(id string, t runningTask) {
	r.mu.Lock()
	r.reserved--
	r.running[id] = t
	r.ending.Add(1)
	r.mu.Unlock()
}

// remove ends the task id, its outcome written.
func (r *taskRunner) remove(id string) {
	r.mu.Lock()
	delete(r.running, id)
	r.mu.Unlock()
	r.ending.Done()
}

// wait waits until every task's outcome is written, or ctx ends.
func (r *taskRunner) wait(ctx context.Context) {
	done := make(chan struct{})
	go func() { r.ending.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// lookup returns the task id if it runs here.
func (r *taskRunner) lookup(id string) (runningTask, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.running[id]
	return t, ok
}

// taskSignal is told by the store of a task another replica cancelled or
// answered: when it runs here, it reads its record again (it may have its
// answers), and when it was cancelled, its handler is.
func (s *Server) taskSignal(id string) {
	t, ok := s.taskRunner.lookup(id)
	if !ok {
		return
	}
	s.taskRunner.wake(id)
	ctx, cancel := context.WithTimeout(s.background, taskStoreTimeout)
	defer cancel()
	if rec, err := s.taskStore.Get(ctx, id, t.principal); err == nil && rec.Status == fleet.TaskCancelled {
		t.cancel(errTaskCancelled)
	}
}
