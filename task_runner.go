package mcpcore

import (
	"context"
	"sync"
)

// taskRunner holds the tasks running in this process: the cap on their
// number (Config.MaxTasks), and how to cancel each.
type taskRunner struct {
	mu       sync.Mutex
	max      int
	reserved int // places taken by calls becoming tasks
	running  map[string]runningTask
	// flushing holds the shadows of tasks that ended here while their
	// final write waits for the store (see taskShadow).
	flushing map[string]*taskShadow
	// ending counts the tasks whose outcome is not written yet, which a
	// shutdown waits for.
	ending sync.WaitGroup
	// rereading: the loop that re-reads the running tasks runs (see
	// rereadTasks); it stops when none runs.
	rereading bool
}

// A runningTask is what the runner knows of one of its tasks.
type runningTask struct {
	cancel    context.CancelCauseFunc
	principal string
	wake      chan struct{} // see taskCall.wake
	shadow    *taskShadow
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
	return &taskRunner{max: max, running: map[string]runningTask{}, flushing: map[string]*taskShadow{}}
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

// add turns a reserved place into the running task id. It reports
// whether the caller is to start the loop that re-reads the running tasks:
// none runs yet.
func (r *taskRunner) add(id string, t runningTask) (startReread bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reserved--
	r.running[id] = t
	r.ending.Add(1)
	startReread = !r.rereading
	r.rereading = true
	return startReread
}

// A runningRef is a running task and its id.
type runningRef struct {
	id string
	runningTask
}

// toReread returns the tasks running now, for the loop that re-reads
// them, and the shadows of ended tasks whose final write waits; when there
// are none, false, and the loop is to stop (a task added after starts
// another).
func (r *taskRunner) toReread() ([]runningRef, []*taskShadow, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.running) == 0 && len(r.flushing) == 0 {
		r.rereading = false
		return nil, nil, false
	}
	refs := make([]runningRef, 0, len(r.running))
	for id, t := range r.running {
		refs = append(refs, runningRef{id, t})
	}
	ended := make([]*taskShadow, 0, len(r.flushing))
	for _, sh := range r.flushing {
		ended = append(ended, sh)
	}
	return refs, ended, true
}

// rereadStopped notes that the loop stopped with tasks still running (the
// server shut down).
func (r *taskRunner) rereadStopped() {
	r.mu.Lock()
	r.rereading = false
	r.mu.Unlock()
}

// remove ends the task id, its outcome written, or kept in its shadow
// until the store takes it.
func (r *taskRunner) remove(id string) {
	r.mu.Lock()
	if sh := r.running[id].shadow; sh != nil && sh.waiting() {
		r.flushing[id] = sh
	}
	delete(r.running, id)
	r.mu.Unlock()
	r.ending.Done()
}

// flushed forgets the shadow of the ended task id: its final write made.
func (r *taskRunner) flushed(id string) {
	r.mu.Lock()
	delete(r.flushing, id)
	r.mu.Unlock()
}

// shadow returns the shadow of the task id, running here or ended with its
// final write waiting; nil when there is none.
func (r *taskRunner) shadow(id string) *taskShadow {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.running[id]; ok {
		return t.shadow
	}
	return r.flushing[id]
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
// answered: when it runs here, it reads its record again (see rereadTask).
func (s *Server) taskSignal(id string) {
	if t, ok := s.taskRunner.lookup(id); ok {
		s.rereadTask(runningRef{id, t})
	}
}
