package mcpcore

import (
	"context"
	"sync"
)

// inflight counts the calls being served, so that shutdown can stop
// admitting new ones and wait for the rest within a deadline.
type inflight struct {
	mu       sync.Mutex
	n        int
	draining bool
	idle     chan struct{} // closed once draining and n == 0

	// stopped is cancelled when the server gives up waiting: every call
	// still running sees its context cancelled.
	stopped context.Context
	stop    context.CancelFunc
}

func newInflight() *inflight {
	ctx, cancel := context.WithCancel(context.Background())
	return &inflight{idle: make(chan struct{}), stopped: ctx, stop: cancel}
}

// enter admits a call and returns its release function, or reports that the
// server is draining.
func (f *inflight) enter() (release func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.draining {
		return nil, false
	}
	f.n++
	var once sync.Once
	return func() { once.Do(f.leave) }, true
}

func (f *inflight) leave() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.draining && f.n == 0 {
		close(f.idle)
	}
}

// isDraining reports whether the server has stopped admitting calls.
func (f *inflight) isDraining() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.draining
}

// drain stops admitting calls and waits until the running ones finish or ctx
// ends; then it cancels whatever is still running. It reports whether every
// call finished in time.
func (f *inflight) drain(ctx context.Context) bool {
	f.mu.Lock()
	if !f.draining {
		f.draining = true
		if f.n == 0 {
			close(f.idle)
		}
	}
	f.mu.Unlock()
	defer f.stop()
	select {
	case <-f.idle:
		return true
	case <-ctx.Done():
		return false
	}
}
