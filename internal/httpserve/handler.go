package httpserve

import (
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/seed417024ea/mcpcore/internal/repeats"
)

// CardPath is where the server card is served.
const CardPath = "/.well-known/mcp.json"

// Options are the parts of the HTTP surface that [New] assembles.
type Options struct {
	// MCP is the SDK's Streamable HTTP handler, served at Path.
	MCP  http.Handler
	Path string
	// Stateless is the SDK handler's mode: without sessions, no request
	// needs one.
	Stateless bool
	// Logger receives the refusals; Repeats collapses floods of them (nil:
	// each is logged).
	Logger  *slog.Logger
	Repeats *repeats.Collapser
	// AllowedOrigins are the browser origins let in besides the server's
	// own (MCP_ALLOWED_ORIGINS).
	AllowedOrigins []string
	// MaxBodyBytes bounds a request's body, read within BodyTimeout.
	MaxBodyBytes int64
	BodyTimeout  time.Duration
	// WriteTimeout bounds each write of a response; zero means
	// [WriteTimeout].
	WriteTimeout time.Duration
	// KeepAlive is how long an event stream may stay quiet before it is
	// sent a comment; zero means [KeepAlive], negative none.
	KeepAlive time.Duration
	// Draining reports whether the server has stopped admitting calls, for
	// the readiness probe; a stateful endpoint then opens no session.
	Draining func() bool
	// Posts, when not nil, counts the POSTs to Path being served, whose
	// answers shutdown waits for before it ends their sessions.
	Posts *atomic.Int64
	// Authenticate, when not nil, stands between the checks of a request's
	// form and its session: it lets the request through or answers it (see
	// [RequestID], [WriteRPCError]), logging its refusals to log. Nil lets
	// everyone in.
	Authenticate func(next http.Handler, log *Refusals) http.Handler
	// Routes are served beside Path, outside Authenticate, keyed by their
	// http.ServeMux patterns (the protected-resource metadata).
	Routes map[string]http.Handler
	// MaxSessions caps the sessions that Sessions counts; with a nil
	// Sessions (a stateless server) there is no cap.
	MaxSessions int
	Sessions    func() int
	// Session finds the open session with an id (nil when there is none),
	// for the table that follows each session from its initialize to its
	// end (see sessionTable); nil on a stateless server. SessionTimeout
	// ends a session that has had no request open, a GET stream included,
	// for that long (zero: never); the SDK's own timeout must then be off.
	// MaxSessionsPerSubject is each authenticated subject's share of
	// MaxSessions (zero: no share).
	Session               func(id string) Session
	SessionTimeout        time.Duration
	MaxSessionsPerSubject int
	// Landing and Card, when set, are served at / and CardPath.
	Landing, Card http.Handler
	// Transport, when set, serves the endpoint's requests on sessions of
	// its own, handed the messages the body guard parsed: on a stateless
	// endpoint, the calls that change no session state share long-lived
	// sessions; on a stateful one, each initialize opens a session of
	// the endpoint's. What they do not take goes to MCP.
	Transport *Transport
	// Endpoints are the server's endpoints, to which New adds this one:
	// its POSTs are then found by their calls (see
	// [Endpoints.RequestContext]). Nil ties no POST to its calls.
	Endpoints *Endpoints
}

// New returns the handler of the whole HTTP surface. A request to the
// endpoint meets, in this order: the count of POSTs being answered, a
// deadline on each write, comments on quiet event streams, the origin
// check, the body's bounds, the form of its protocol version header, the
// bearer token, the refusal of new sessions while draining, the need of a
// session, the session cap, the subject's share of it and the session's
// idle timer, the Mcp-Name of a tasks/* call, the tie between a POST and
// its calls (see [Endpoints.RequestContext]), and then the SDK. Probes,
// metadata, the landing page and the card are outside authentication.
func New(o Options) (http.Handler, error) {
	log := newRefusals(o.Logger, o.Repeats)
	origins, err := originGuard(o.AllowedOrigins, log)
	if err != nil {
		return nil, err
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = WriteTimeout
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = KeepAlive
	}
	chain := []func(http.Handler) http.Handler{
		countPosts(o.Posts),
		answerThrough(o.WriteTimeout, o.KeepAlive), // the writer the body guard's answers need
		origins,
		guardBody(o.MaxBodyBytes, o.BodyTimeout, o.Stateless, log),
		guardVersion(log),
	}
	if o.Authenticate != nil {
		chain = append(chain, func(next http.Handler) http.Handler { return o.Authenticate(next, log) })
	}
	var table *sessionTable
	if !o.Stateless && o.Session != nil {
		table = newSessionTable(o.SessionTimeout, o.MaxSessionsPerSubject, o.Session, log)
	}
	chain = append(chain, refuseWhileDraining(o.Draining, o.Stateless, log))
	chain = append(chain, requireSession, limitSessions(o.MaxSessions, o.Sessions, log), trackSessions(table))
	chain = append(chain, guardTaskName(o.Stateless, log))
	if o.Endpoints != nil {
		chain = append(chain, o.Endpoints.add().tie)
	}
	endpoint := o.MCP
	switch {
	case o.Transport == nil:
	case o.Stateless:
		endpoint = shareFirst(newSharedPool(*o.Transport), o.MCP)
	default:
		endpoint = ownFirst(newOwnSessions(*o.Transport, log), o.MCP)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		endpoint = chain[i](endpoint)
	}
	mux := http.NewServeMux()
	root := boundStrayBodies(o.Path, o.BodyTimeout, mux)
	mux.Handle(o.Path, endpoint)
	probes(mux, o.Draining)
	for pattern, h := range o.Routes {
		mux.Handle(pattern, h)
	}
	if o.Landing != nil {
		mux.Handle("GET /{$}", o.Landing)
	}
	if o.Card != nil {
		mux.Handle("GET "+CardPath, o.Card)
	}
	return root, nil
}
