package mcpcore

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/config"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// The paths of the HTTP surface (see [Server.Handler]).
const (
	// HTTPPath is the endpoint of the Streamable HTTP transport.
	HTTPPath = "/mcp"
	// LivenessPath answers 200 while the process serves HTTP at all.
	LivenessPath = httpserve.LivenessPath
	// ReadinessPath answers 200 while the server admits calls, and 503 once
	// it drains at shutdown, so that a load balancer stops sending it work
	// while the calls in flight finish.
	ReadinessPath = httpserve.ReadinessPath
	// ResourceMetadataPath serves the protected-resource metadata of RFC
	// 9728 when the server has an [HTTPAuth] (MCP_AUTH_MODE jwt or oauth).
	ResourceMetadataPath = httpserve.MetadataPath
	// CardPath serves the server card.
	CardPath = httpserve.CardPath
)

// Run serves until ctx ends or the process receives SIGINT or SIGTERM, over
// the transport [Config.Transport] selects: stdio by default, Streamable
// HTTP with [TransportHTTP] (on Config.HTTPHost:Config.HTTPPort, default
// 127.0.0.1:3010, stateless with Config.Stateless). Run reads no
// environment: the server's settings were fixed by [NewServer], and
// package app is what reads them from the environment before. On the way
// out it stops admitting calls and lets in-flight ones finish within the
// shutdown timeout, then cancels the rest, and ends as [Server.Shutdown]
// does.
func (s *Server) Run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if s.cfg.Transport == config.HTTP {
		return s.ListenAndServe(ctx, s.cfg.Addr())
	}
	return s.ServeStdio(ctx)
}

// ServeStdio serves one client over stdin and stdout until ctx ends, the
// client closes stdin or [Server.Shutdown] is called, and then shuts the
// server down. The stream is guarded as [Server.ServeTransport] says.
func (s *Server) ServeStdio(ctx context.Context) error {
	// The session has drained: Shutdown ends the rest.
	defer s.shutdownAtEnd()
	s.transport = "stdio"
	s.logger.Info(fmt.Sprintf("mcpcore: serving %s over stdio: %s. Connect an MCP client that launches this command; logs go to stderr.",
		s.describe(), s.inventory()))
	return s.ServeTransport(ctx, &mcp.StdioTransport{})
}

// ServeTransport serves one session over t until ctx ends, the peer
// disconnects or [Server.Shutdown] is called, draining the server's calls
// gracefully when ctx ends or Shutdown is called. It leaves the rest of
// the server running: a program that serves its own transports calls
// Shutdown when it is done with the server.
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
// ignores its cancellation does not hold the session: ServeTransport
// returns all the same, the stream is cut so that its late answer is never
// written, and its goroutine runs on until it returns. Any other transport
// is served as it is: the SDK's behaviour on malformed input is its own, a
// result that races shutdown may be lost, and a handler that ignores its
// cancellation holds the session's goroutines; it holds ServeTransport too
// when the peer leaves (the SDK ends the session once every handler
// returned), but not when ctx ends.
func (s *Server) ServeTransport(ctx context.Context, t mcp.Transport) error {
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
	s.transports.Add(1)
	var drained sync.Once
	doneDraining := func() { drained.Do(func() { s.transports.Add(-1) }) }
	defer doneDraining()
	drain := func(why string) bool {
		once.Do(func() {
			defer doneDraining()
			ctx, cancel := context.WithTimeout(context.Background(), s.shutdown)
			defer cancel()
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
	session, err := s.mcp.Connect(context.WithoutCancel(ctx), t, nil)
	if err != nil {
		return err
	}
	closed := make(chan error, 1)
	go func() { closed <- session.Wait() }()
	select {
	case err := <-closed:
		s.inflight.stop()
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

// endTransport ends a session of ServeTransport, on shutdown: it drains
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

// sessionErr is the error ServeTransport returns for the end of its
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

// Handler returns the HTTP surface of the server: the Streamable HTTP
// endpoint [HTTPPath] in the session mode of MCP_SESSION_MODE, behind the
// origin check, the bounds on bodies, the authentication of
// [ServerOptions].HTTPAuth,
// the session cap and each token subject's share of it
// (MCP_HTTP_MAX_SESSIONS_PER_SUBJECT), and the idle timeout of sessions,
// which an open GET stream holds off; and beside it, outside authentication, the probes
// [LivenessPath] and [ReadinessPath], the protected-resource metadata
// (with auth), the landing page at / and the server card at
// /.well-known/mcp.json. Mount it in a mux of your own, or use
// [Server.ListenAndServe]; [Server.Shutdown] says how to stop a server
// mounted by hand.
//
// A POST whose body is not a well-formed JSON-RPC message is answered
// before the SDK sees it, with the JSON-RPC error the stdio guard would send
// for the same bytes (see [Server.ServeTransport]) as an application/json
// body: HTTP 400 with -32700 or -32600, or HTTP 413 with -32700 for a body
// over MCP_HTTP_MAX_BODY_BYTES. A batch with an invalid element is refused
// whole. Every other refusal (a missing token, an unknown session, a
// missing Accept header, …) is a JSON-RPC error too, with a real code.
func (s *Server) Handler() http.Handler {
	catalog := s.catalog()
	// Written once, before any session: a second Handler (of a server
	// already serving) must not race the sessions that read it.
	if s.transport != "http" {
		s.transport = "http"
	}
	opts := httpserve.Options{
		MCP: mcp.NewStreamableHTTPHandler(
			func(*http.Request) *mcp.Server { return s.mcp },
			&mcp.StreamableHTTPOptions{
				// The endpoint keeps the idle timeout (httpserve), so
				// that an open GET stream counts as activity; the SDK's
				// warnings, a flood of which a client can cause, are
				// collapsed like every refusal.
				Stateless: s.cfg.Stateless, Logger: sdkLogger(s.logger, s.repeats),
				MaxRequestBodyBytes: s.cfg.MaxBodyBytes,
				// A client that hangs up (2026-07-28) cancels its call.
				PropagateRequestCancellation: true,
			}),
		Path:           HTTPPath,
		Stateless:      s.cfg.Stateless,
		Logger:         s.logger,
		Repeats:        s.repeats,
		AllowedOrigins: s.cfg.AllowedOrigins,
		MaxBodyBytes:   s.cfg.MaxBodyBytes,
		BodyTimeout:    s.bodyTimeout,
		KeepAlive:      s.cfg.StreamKeepAlive,
		Draining:       s.inflight.isDraining,
		Posts:          &s.posts,
		Landing:        httpserve.Landing(catalog, s.logger),
		Card:           httpserve.Card(catalog, s.logger),
		Endpoints:      &s.endpoints,
	}
	if s.auth != nil {
		opts.Authenticate = func(next http.Handler, log *httpserve.Refusals) http.Handler { return s.auth.Protect(next, log) }
		opts.Routes = s.auth.Routes(HTTPPath, s.scopes)
	}
	if !s.cfg.Stateless {
		opts.MaxSessions, opts.Sessions = s.cfg.MaxSessions, s.sessionCount
		opts.SessionTimeout, opts.MaxSessionsPerSubject = s.sessionTimeout, s.cfg.MaxSessionsPerSubject
		opts.Session = func(id string) httpserve.Session {
			for ss := range s.mcp.Sessions() {
				if ss.ID() == id {
					return ss
				}
			}
			return nil
		}
	}
	h, err := httpserve.New(opts)
	if err != nil {
		// NewServer checked the configuration; nothing else fails.
		panic(err)
	}
	return h
}

// sessionCount counts the sessions open that a client initialized: the
// SDK also opens a session of its own for the length of one request that
// comes without one (a 2026-07-28 client's server/discover), which holds
// nothing after it.
func (s *Server) sessionCount() int {
	n := 0
	for ss := range s.mcp.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	return n
}

// ListenAndServe serves Streamable HTTP on addr (host:port) until ctx ends
// or [Server.Shutdown] is called, then shuts down gracefully: the server
// first, as Shutdown does (within the shutdown timeout), and its
// http.Server after it. It returns the listener's error, if serving
// stopped for that; nil otherwise.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	s.transport = "http"
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.shutdownAtEnd()
		return err
	}
	// Idle keep-alive connections close after a while. The body's read and
	// each write of a response have their own deadlines (httpserve), so
	// that streams open by design are not cut.
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	mode := "stateful sessions"
	if s.cfg.Stateless {
		mode = "stateless"
	}
	s.logger.Info(fmt.Sprintf("mcpcore: serving %s over Streamable HTTP (%s): %s; %s. Connect an MCP client to http://%s%s",
		s.describe(), mode, s.inventory(), s.sharedLine(), ln.Addr(), HTTPPath))
	if s.cfg.Stateless && s.stateKeys.random {
		// Nothing can tell a lone process from one of several replicas.
		s.logger.Warn("mcpcore: stateless, and no MCP_STATE_KEYS: this process signs requestState with a random key of its own, so behind a load balancer a multi-round call answered by another replica is refused; give every replica the same MCP_STATE_KEYS")
	}
	select {
	case err = <-served:
	case <-ctx.Done():
	case <-s.stopping:
	}
	// In the order Shutdown documents for a Handler mounted by hand: the
	// calls drain and are answered on their open responses, the sessions
	// and their GET streams end, and then the HTTP server has little left
	// to wait for.
	s.shutdownAtEnd()
	// The response of a handler that ignores its cancellation would hold
	// Shutdown forever: give it a moment, then close.
	closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if srv.Shutdown(closeCtx) != nil {
		srv.Close()
	}
	return err
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
