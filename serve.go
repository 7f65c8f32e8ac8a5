package mcpcore

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// Serve serves one session over t until ctx ends, the peer disconnects or
// [Server.Shutdown] is called, draining the server's calls gracefully when
// ctx ends or Shutdown is called.
//
// Over an [*mcp.StdioTransport], Serve is a whole stdio program: it logs
// the start-up line (the server, its tools, resources and prompts) and,
// as it returns, shuts the server down as Shutdown does, within
// [ServerOptions].ShutdownTimeout:
//
//	err := srv.Serve(ctx, &mcp.StdioTransport{})
//
// Over any other transport, the end of the session ends it alone: the
// calls its peer sent are answered, and the server goes on serving its
// other sessions and the next ones, so that a program may serve a session
// per connection; it calls Shutdown when it is done with the server.
// Serve handles no signal:
// [github.com/seed417024ea/mcpcore/app.Main] ends on SIGINT and SIGTERM.
//
// An [*mcp.IOTransport] or [*mcp.StdioTransport] is served through a guard
// that reads the stream line by line before the SDK does. The SDK alone
// ends the connection on the first malformed line; behind the guard, each
// one gets its JSON-RPC 2.0 error and the session goes on:
//
//   - -32700 Parse error for a line that is not one JSON value, a line over
//     the transport's MaxLineLength (16 MiB by default; no more of the line
//     than that is ever held) and nesting deeper than 1,000 levels;
//   - -32600 Invalid Request for JSON that is not an object or a batch
//     array of objects, an empty batch, "jsonrpc" other than "2.0", a
//     member given twice, an id that is not a string, a whole number or
//     null, a numeric id the SDK would answer under another id (1.5, 1e400,
//     a number past 64 bits or not exact in a float64), a string id that
//     is not valid UTF-8, a method that is not a string, an id still in use
//     by a pending request, a malformed response, and a request other than
//     initialize or ping before initialize;
//   - the id of the request when it could be read, is valid and is not in
//     use by another request; null otherwise.
//
// Batches are answered as the SDK answers them until initialize settles on
// 2025-06-18 or later; from then on (where the SDK would end the
// connection) each request of a batch gets -32600. The internal/rpcguard
// package documents the details. The guard hands the SDK the messages it
// has parsed to check them, already decoded: each line is decoded once,
// not again by the SDK's own connection.
//
// On shutdown (ctx ends), the server stops admitting calls and lets those
// in flight finish within the shutdown timeout; then it cancels the rest
// and gives them a moment (a second) to return. Behind the guard, the
// answer of every call that returned is written before the session ends,
// and input that ends (`printf … | server`) drains the same way before the
// SDK sees the end: the calls read before it are answered. A handler that
// ignores its cancellation does not hold the session: Serve
// returns all the same, the stream is cut so that its late answer is never
// written, and its goroutine runs on until it returns. Any other transport
// is served as it is: the SDK's behaviour on malformed input is its own, a
// result that races shutdown may be lost, and a handler that ignores its
// cancellation holds the session's goroutines; it holds Serve too
// when the peer leaves (the SDK ends the session once every handler
// returned), but not when ctx ends.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	// Over stdio the session is the whole program; over any other
	// transport it is one of the program's, and its end ends it alone.
	_, whole := t.(*mcp.StdioTransport)
	if whole {
		// The session has drained: Shutdown ends the rest, after the
		// deferred work below.
		defer s.shutdownAtEnd()
		s.transport = "stdio"
		s.logger.Info(fmt.Sprintf("mcpcore: serving %s over stdio: %s. Connect an MCP client that launches this command; logs go to stderr.",
			s.describe(), s.inventory()))
	}
	// However serving ends, counts of collapsed failures are written, not
	// lost with the process.
	defer s.repeats.Flush()
	var guard *rpcguard.Guard
	switch tt := t.(type) {
	case *mcp.IOTransport:
		guard = rpcguard.New(tt.Reader, tt.Writer, tt.MaxLineLength)
	case *mcp.StdioTransport:
		// The SDK's own stdio transport closes stdin but never stdout.
		guard = rpcguard.New(os.Stdin, struct{ io.Writer }{os.Stdout}, tt.MaxLineLength)
	}
	// One drain, whichever comes first: ctx, Shutdown or the end of the
	// input. Shutdown waits for it (s.transports) before it ends sessions.
	var once sync.Once
	var finished bool
	// The session, once connected: the input may end before.
	var ended atomic.Pointer[mcp.ServerSession]
	s.transports.Add(1)
	var drained sync.Once
	doneDraining := func() { drained.Do(func() { s.transports.Add(-1) }) }
	defer doneDraining()
	drain := func(why string) bool {
		once.Do(func() {
			defer doneDraining()
			ctx, cancel := context.WithTimeout(context.Background(), s.shutdown)
			defer cancel()
			if why == whyInputEnded && !whole {
				// The peer is done with this session only: the calls it
				// sent are answered, and the server serves on.
				finished = s.drainSession(ctx, guard, ended.Load())
				return
			}
			finished, _ = s.drain(ctx, guard, why, cancelledGrace)
		})
		return finished
	}
	inputEnded := make(chan struct{})
	if guard != nil {
		// The SDK writes nothing once it has seen the end of the input:
		// the calls read before it drain first.
		guard.HoldEOF(func() {
			drain(whyInputEnded)
			close(inputEnded)
		})
		// The guard has parsed each message to check it: the SDK gets it
		// decoded, not as bytes to decode again.
		t = guard.Transport()
	}
	// The session must outlive ctx long enough to deliver the results of
	// the calls that drain after ctx ends.
	connect := s.mcp.Connect
	if guard != nil {
		connect = s.connect
	}
	session, err := connect(context.WithoutCancel(ctx), t, nil)
	if err != nil {
		return err
	}
	ended.Store(session)
	closed := make(chan error, 1)
	go func() { closed <- session.Wait() }()
	select {
	case err := <-closed:
		if whole {
			s.inflight.stop()
		}
		return sessionErr(err)
	case <-inputEnded:
		// The SDK ends the session by itself once no handler runs.
	case <-ctx.Done():
		s.endTransport(session, drain)
	case <-s.stopping:
		s.endTransport(session, drain)
	}
	// The drain is done; this reads its outcome.
	wait := sessionEndWait
	if !drain(whyShutdown) {
		wait = 0 // a handler that ignored its cancellation holds the session
	}
	select {
	case err := <-closed:
		return sessionErr(err)
	case <-time.After(wait):
	}
	if n := s.inflight.count(); n > 0 {
		s.logger.Warn("mcpcore: ending the session without the calls that ignored their cancellation; their handlers run on until they return, and their answers are not sent",
			"calls", n)
	} else {
		s.logger.Warn("mcpcore: the session did not close in time; ending it")
	}
	if guard != nil {
		guard.Cut()
	}
	return nil
}

// endTransport ends a session of Serve, on shutdown: it drains
// the calls, then closes the session.
func (s *Server) endTransport(session *mcp.ServerSession, drain func(why string) bool) {
	drain(whyShutdown)
	// Close waits for every handler to return: it may never.
	go session.Close()
}

// cancelledGrace is how long the calls cancelled at the end of the shutdown
// timeout get to return and have their answers written, before a stdio
// session ends without the calls that ignore their cancellation.
const cancelledGrace = time.Second

// sessionEndWait bounds the wait for a session whose calls all finished to
// close.
const sessionEndWait = time.Second

// The reasons to drain.
const (
	whyShutdown   = "shutting down"
	whyInputEnded = "the input ended"
)

// sessionErr is the error Serve returns for the end of its
// session: none when the peer disconnected.
func sessionErr(err error) error {
	if errchain.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// sessionStarted measures a session from its initialization to its end,
// on any transport (mcp.server.session.duration).
func (s *Server) sessionStarted(_ context.Context, req *mcp.InitializedRequest) {
	if s.observer == nil || req.Session == nil {
		return
	}
	ss := req.Session
	observed := s.startSession(SessionInfo{Transport: s.transport, ProtocolVersion: protocolVersion(ss)})
	if observed == nil {
		return
	}
	s.sessionsWG.Add(1)
	go func() {
		defer s.sessionsWG.Done()
		defer func() { _ = recover() }() // telemetry is not worth a session
		err := ss.Wait()
		if errchain.Is(err, mcp.ErrConnectionClosed) {
			err = nil
		}
		observed.End(err)
	}()
}

// startSession tells the Observer of a session; nil when it records
// nothing of it, or panicked.
func (s *Server) startSession(info SessionInfo) (observed SessionObservation) {
	defer func() { _ = recover() }()
	return s.observer.StartSession(info)
}

// protocolVersion is the version a session negotiated, or "".
func protocolVersion(ss *mcp.ServerSession) string {
	if p := ss.InitializeParams(); p != nil {
		return p.ProtocolVersion
	}
	return ""
}

func (s *Server) describe() string {
	if s.info.Version == "" {
		return fmt.Sprintf("%q", s.info.Name)
	}
	return fmt.Sprintf("%q %s", s.info.Name, s.info.Version)
}

func (s *Server) inventory() string {
	return fmt.Sprintf("%s, %s, %s",
		plural(s.tools, "tool"), plural(s.resources, "resource"), plural(s.prompts, "prompt"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
