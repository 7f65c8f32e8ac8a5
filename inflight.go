package mcpcore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inflight holds the calls being served, so that shutdown can stop
// admitting new ones, wait for the rest within a deadline, and then cancel
// what still runs; and it counts the calls admitted to run, of the server
// and of each session, to bound them.
//
// Every call passes through it, so it allocates nothing per call: a call is
// a token into a map of cancel functions, not a context.AfterFunc and a
// release closure of its own.
type inflight struct {
	mu    sync.Mutex
	calls map[uint64]entry // by token
	next  uint64
	// draining is written under mu, and read without it by the HTTP
	// layer, which asks for every stateless request.
	draining atomic.Bool
	idle     chan struct{} // closed once draining and no call runs
	stopped  bool          // calls are cancelled as they come

	// running counts the calls that enter counted and that have not
	// left: the server's calls in flight, in every session or none.
	running int
	// perSession counts the calls in flight of each session.
	perSession map[*mcp.ServerSession]int
}

// An entry is one call in flight.
type entry struct {
	cancel  context.CancelCauseFunc
	counted bool               // among running
	session *mcp.ServerSession // counted among its session's; nil if not
	// stopCause is what a stop cancels the call with: errServerStopped,
	// or a task's own end (see detach).
	stopCause error
}

var (
	errServerStopped = errors.New("server stopped")
	errHungUp        = errors.New("the client hung up")
	errSessionEnded  = errors.New("the session's input ended")
	// errServerBusy is the cause of a call refused beyond the server's
	// bound on calls in flight (see enter).
	errServerBusy = errors.New("the server has too many calls in flight")
)

func newInflight() *inflight {
	return &inflight{calls: make(map[uint64]entry), idle: make(chan struct{}),
		perSession: make(map[*mcp.ServerSession]int)}
}

// enter enters a call whose context cancel ends, and returns the token
// that leaves it: 0 when the server is draining, and the call is not
// entered. Once the server has stopped, the call's context is cancelled at
// once. An entered call is counted among its session's calls (when ss is
// not nil and perSession > 0) and the server's (when perServer > 0),
// unless as many run already: busy is then errSessionBusy or
// errServerBusy, and the call, entered but not counted there, must be
// answered with its refusal and leave. One client must not take every
// goroutine and connection of the server by piling up slow calls on its
// session; the server's bound holds across sessions and in stateless
// mode, where no session bounds a client.
func (f *inflight) enter(cancel context.CancelCauseFunc, ss *mcp.ServerSession, perSession, perServer int) (token uint64, busy error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.draining.Load() {
		return 0, nil
	}
	if f.stopped {
		cancel(errServerStopped)
	}
	e := entry{cancel: cancel}
	switch {
	case ss != nil && perSession > 0 && f.perSession[ss] >= perSession:
		busy = errSessionBusy
	case perServer > 0 && f.running >= perServer:
		busy = errServerBusy
	}
	if busy != errSessionBusy && ss != nil && perSession > 0 {
		e.session = ss
		f.perSession[ss]++
	}
	if busy == nil && perServer > 0 {
		e.counted = true
		f.running++
	}
	f.next++
	f.calls[f.next] = e
	return f.next, busy
}

// leave ends the call of token; a second leave does nothing.
func (f *inflight) leave(token uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.calls[token]
	if !ok {
		return
	}
	f.uncount(e)
	delete(f.calls, token)
	if f.draining.Load() && len(f.calls) == 0 {
		close(f.idle)
	}
}

// uncount takes e out of the counts of calls in flight, the server's and
// its session's; f.mu is held.
func (f *inflight) uncount(e entry) {
	if e.counted {
		f.running--
	}
	if e.session != nil {
		if f.perSession[e.session]--; f.perSession[e.session] <= 0 {
			delete(f.perSession, e.session)
		}
	}
}

// stop cancels every call running, and every call admitted from now on.
func (f *inflight) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = true
	for _, e := range f.calls {
		if e.stopCause != nil {
			e.cancel(e.stopCause)
			continue
		}
		e.cancel(errServerStopped)
	}
}

// detach takes the call of token out of the counts of calls in flight, its
// session's and the server's, as it becomes a task that outlives its
// request: it stays among the calls a shutdown waits for, and is
// cancelled with cause when the shutdown stops waiting.
func (f *inflight) detach(token uint64, cause error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.calls[token]
	if !ok {
		return
	}
	f.uncount(e)
	f.calls[token] = entry{cancel: e.cancel, stopCause: cause}
}

// cancelSession cancels the calls of ss still running, as their session
// ends while the server serves on.
func (f *inflight) cancelSession(ss *mcp.ServerSession, cause error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range f.calls {
		if ss != nil && e.session == ss {
			e.cancel(cause)
		}
	}
}

// isDraining reports whether the server has stopped admitting calls.
func (f *inflight) isDraining() bool { return f.draining.Load() }

// isStopped reports whether the calls have been cancelled: by a drain that
// ran out of time, or when a served session ended.
func (f *inflight) isStopped() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopped
}

// drain stops admitting calls and waits until the running ones finish or ctx
// ends; then it cancels whatever is still running. It reports whether every
// call finished in time. Once the calls have been cancelled, a drain does
// not wait again: it would wait only for handlers that ignore their
// cancellation.
func (f *inflight) drain(ctx context.Context) bool {
	f.mu.Lock()
	if !f.draining.Load() {
		f.draining.Store(true)
		if len(f.calls) == 0 {
			close(f.idle)
		}
	}
	stopped := f.stopped
	f.mu.Unlock()
	if stopped {
		select {
		case <-f.idle:
			return true
		default:
			return false
		}
	}
	defer f.stop()
	return f.wait(ctx)
}

// wait waits until no call runs, once draining, or until ctx ends; it
// reports whether every call finished.
func (f *inflight) wait(ctx context.Context) bool {
	select {
	case <-f.idle:
		return true // even when ctx has ended too
	default:
	}
	select {
	case <-f.idle:
		return true
	case <-ctx.Done():
		return false
	}
}

// count returns the number of calls in flight.
func (f *inflight) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}
