package mcpcore

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

	// perSession counts the calls in flight of each session.
	perSession map[*mcp.ServerSession]int
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

// enterSession counts a call of session ss, unless limit calls of it are
// in flight already: one client must not take every goroutine and
// connection of the server by piling up slow calls on its session.
func (f *inflight) enterSession(ss *mcp.ServerSession, limit int) (release func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.perSession[ss] >= limit {
		return nil, false
	}
	if f.perSession == nil {
		f.perSession = make(map[*mcp.ServerSession]int)
	}
	f.perSession[ss]++
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.perSession[ss]--; f.perSession[ss] <= 0 {
				delete(f.perSession, ss)
			}
		})
	}, true
}
