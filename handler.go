package mcpcore

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/internal/serving"
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

// Handler returns the HTTP surface of the server: the Streamable HTTP
// endpoint [HTTPPath] in the session mode of MCP_SESSION_MODE, behind the
// origin check, the bounds on bodies, the authentication of
// [ServerOptions].HTTPAuth,
// the session cap and each token subject's share of it
// (MCP_HTTP_MAX_SESSIONS_PER_SUBJECT), and the idle timeout of sessions,
// which an open GET stream holds off; and beside it, outside authentication, the probes
// [LivenessPath] and [ReadinessPath], the protected-resource metadata
// (with auth), the landing page at / and the server card at
// /.well-known/mcp.json. Mount it in a mux of your own (package
// github.com/seed417024ea/mcpcore/app serves it with MCP_TRANSPORT_TYPE=http);
// [Server.Shutdown] says how to stop a server mounted by hand.
//
// A POST whose body is not a well-formed JSON-RPC message is answered
// before the SDK sees it, with the JSON-RPC error the stdio guard would send
// for the same bytes (see [Server.Serve]) as an application/json
// body: HTTP 400 with -32700 or -32600, or HTTP 413 with -32700 for a body
// over MCP_HTTP_MAX_BODY_BYTES. A batch with an invalid element is refused
// whole. Every other refusal (a missing token, an unknown session, a
// missing Accept header, …) is a JSON-RPC error too, with a real code.
func (s *Server) Handler() http.Handler {
	pages := s.catalogSource(s.catalog())
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
		Landing:        httpserve.Landing(pages, s.logger),
		Card:           httpserve.Card(pages, s.logger),
		Endpoints:      &s.endpoints,
	}
	opts.Transport = &httpserve.Transport{Connect: s.connect, Methods: s.customMethod,
		HeaderBound: func(tool string) bool { return s.headerTools[tool] }}
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
	// Package app listens for it, and reads what its start-up line and
	// its shutdown need.
	return &serving.Handler{Handler: h, Name: s.describe(), Inventory: s.inventory(),
		Stopping: s.stopping, ShutdownTimeout: s.shutdown}
}

// customMethod reports the methods the server registers beyond the SDK's:
// the tasks extension's, when the server runs tasks. None changes the
// state of the session it runs on.
func (s *Server) customMethod(method string) bool {
	return s.taskStore != nil && taskMethodNames[method]
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
