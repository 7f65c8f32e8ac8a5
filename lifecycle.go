package mcpcore

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// Shutdown stops the server: what [Server.Serve] over an
// [*mcp.StdioTransport] and package app's Main do on their way out, for a
// program that serves [Server.Handler] in an http.Server of its own, or
// its own transports, or that stops a server before its context ends. In
// order, it:
//
//  1. stops admitting calls: a new call gets the result a server shutting
//     down gives (ServiceUnavailable, "retry the request on a new
//     connection"), an initialize that would open a session gets HTTP 503,
//     and [ReadinessPath] answers 503;
//  2. waits for the calls in flight until ctx ends, then cancels those
//     still running (their context's cause says the server stopped) and
//     gives them a second to return;
//  3. waits, a second at most, for the answers of the calls that returned
//     to be written, then ends every session, which ends their GET streams;
//  4. writes the summaries of the log records it collapsed and stops the
//     work the server does on its own: no goroutine the server started
//     outlives it, but those of handlers that ignore their cancellation,
//     which run on until they return. The refresh of an OAuth issuer's
//     keys belongs to its [HTTPAuth], which ends with the context it was
//     given (package app's Close ends it).
//
// It returns nil when every call finished in time, and ctx's error when
// calls had to be cancelled. Shutdown is safe to call at any time, from
// any goroutine, while calls are served: the first call does the work, and
// a later one waits for it (or for its own ctx) and returns the same
// result. A Serve (and package app's Run) that is serving returns when
// Shutdown is called. A server that has shut down does
// not serve again: it refuses every call.
//
// A program that mounts Handler in its own http.Server shuts the MCP server
// down first, and the HTTP server after it:
//
//	err := srv.Shutdown(ctx)        // calls drain and are answered; sessions end
//	err = httpSrv.Shutdown(ctx)     // no stream is left open to wait for
//	if err != nil {
//		httpSrv.Close()             // a handler that ignored its cancellation
//	}
//
// The other order waits for nothing good: http.Server.Shutdown closes the
// listeners and waits for every connection to fall idle, and a session's
// GET stream (the server-sent events of its notifications) is never idle
// until its session ends, so it would hold until ctx ends, while the
// server went on admitting calls on the connections still open and the
// calls in flight lost the time they had to finish. In this order the
// listener stays open while the calls drain, and a client is told why it
// is refused rather than finding the connection refused.
func (s *Server) Shutdown(ctx context.Context) error {
	first := false
	s.stopOnce.Do(func() {
		first = true
		close(s.stopping)
	})
	if first {
		s.stopErr = s.stop(ctx)
		close(s.stopped)
		return s.stopErr
	}
	select {
	case <-s.stopped:
		return s.stopErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errCancelled is what Shutdown returns when the calls were cancelled
// before it began (a served session ended) and some still run.
var errCancelled = errors.New("mcpcore: calls in flight were cancelled and have not returned")

// stop is the work of Shutdown, done once.
func (s *Server) stop(ctx context.Context) error {
	_, inTime := s.drain(ctx, nil, whyShutdown, cancelledGrace)
	// The last answers go out before their sessions end: those of the
	// guarded transports (Serve waits for them, woken by
	// s.stopping), and those of HTTP POSTs.
	answered, cancel := context.WithTimeout(context.Background(), sessionEndWait)
	waitZero(answered, &s.transports)
	waitZero(answered, &s.posts)
	if s.taskRunner != nil {
		// The tasks the drain ended write their outcome.
		s.taskRunner.wait(answered)
	}
	cancel()
	s.endSessions()
	s.closeShared()
	s.repeats.Flush()
	// The keys fetched stay in use for whatever still comes; only their
	// refresh stops.
	s.endBackground()
	if inTime {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return errCancelled
}

// shutdownAtEnd is what Serve over stdio does as it returns: Shutdown
// within the shutdown timeout.
func (s *Server) shutdownAtEnd() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.shutdown)
	defer cancel()
	return s.Shutdown(ctx)
}

// waitZero waits until n is zero or ctx ends. It polls: shutdown is rare,
// and the POSTs it counts must cost no more than an atomic add each.
func waitZero(ctx context.Context, n *atomic.Int64) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for n.Load() > 0 {
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}

// drain stops admitting calls and waits for in-flight ones until ctx ends
// (when the input ended, the requests read before the end are admitted and
// answered first, within the same bound); then it cancels what still runs,
// and waits grace more for the cancelled calls to return. When guard is
// not nil, it waits (within the same bounds) for the answers of the calls
// that returned to be written: a call leaves the in-flight count when its
// handler returns, a moment before the SDK writes its result, and the SDK
// writes nothing once Close has begun or the input has ended. It reports
// whether every call returned (cancelled ones included), and whether every
// call returned before ctx ended. why says what began the drain, for the
// log.
// A drain after the calls were cancelled (by another drain, or as a
// session ended) does not wait for them again.
func (s *Server) drain(ctx context.Context, guard *rpcguard.Guard, why string, grace time.Duration) (returned, inTime bool) {
	stopped := s.inflight.isStopped()
	if !s.inflight.isDraining() && !stopped && (why != whyInputEnded || s.inflight.count() > 0) {
		timeout := "none"
		if d, ok := ctx.Deadline(); ok {
			timeout = time.Until(d).Round(time.Millisecond).String()
		}
		s.logger.Info("mcpcore: "+why+"; waiting for in-flight calls", "timeout", timeout)
	}
	if why == whyInputEnded && guard != nil {
		// The calls read before the end were sent before the client left:
		// they may still start, and are answered.
		guard.Wait(ctx)
	}
	inTime = s.inflight.drain(ctx)
	returned = inTime
	if !inTime && !stopped {
		s.logger.Warn("mcpcore: in-flight calls did not finish in time; cancelled them", "calls", s.inflight.count())
		if grace > 0 {
			graceCtx, cancelGrace := context.WithTimeout(context.Background(), grace)
			defer cancelGrace()
			ctx = graceCtx
			returned = s.inflight.wait(ctx)
		}
	}
	if guard != nil {
		guard.Wait(ctx)
	}
	return returned, inTime
}

// drainSession lets the calls of one session whose input ended finish
// within ctx, then cancels those still running and gives them a moment to
// return; it reports whether every answer was written. The rest of the
// server serves on.
func (s *Server) drainSession(ctx context.Context, guard *rpcguard.Guard, ss *mcp.ServerSession) bool {
	guard.Wait(ctx)
	if ctx.Err() == nil {
		return true
	}
	s.logger.Warn("mcpcore: the calls of a session whose input ended did not finish in time; cancelled them")
	s.inflight.cancelSession(ss, errSessionEnded)
	grace, cancel := context.WithTimeout(context.Background(), cancelledGrace)
	defer cancel()
	guard.Wait(grace)
	return grace.Err() == nil
}

// endSessions closes the sessions still open (an HTTP client that never
// said goodbye; a stdio session) and waits, a moment at most, for the
// durations of those measured to be recorded, so that the flush that
// follows has them. A session's GET stream ends with it, once its calls
// have returned.
func (s *Server) endSessions() {
	var open []*mcp.ServerSession
	for ss := range s.mcp.Sessions() {
		open = append(open, ss)
	}
	// Close waits for the session's handlers, which may never return.
	for _, ss := range open {
		go ss.Close()
	}
	done := make(chan struct{})
	go func() {
		s.sessionsWG.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}
