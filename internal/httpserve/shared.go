package httpserve

import (
	"context"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stateless requests share sessions. The SDK's handler builds a whole
// server session for each stateless request (a transport, a connection,
// two goroutines, an entry in the server's list of sessions under its
// lock) and decodes the body twice and its params twice more, before the
// session decodes them again. A request of the 2026-07-28 protocol
// carries all a session would hold in its _meta, and one of an earlier
// protocol to a stateless server is served on a session whose state
// depends on its protocol version alone; so the calls of one version that
// change no session state are all served by one long-lived session, fed
// the messages the body guard has already parsed.
//
// Nothing else changes: a request shareable does not take (a batch, a
// notification, initialize, a call the SDK's handler would refuse) goes
// to the SDK's handler as before, and gets its answer.

// Transport is what the endpoint's own sessions need of the server (see
// [Options]): on a stateless endpoint, the sessions its calls share; on
// a stateful one, each client's.
type Transport struct {
	// Connect connects a session of the server to a transport: the
	// server's [mcp.Server.Connect].
	Connect func(context.Context, mcp.Transport, *mcp.ServerSessionOptions) (*mcp.ServerSession, error)
	// Methods reports the methods the server registered beyond the
	// SDK's (their params optional); none may change the state of the
	// session it runs on.
	Methods func(method string) bool
	// HeaderBound reports whether a tool's input binds a header of its own
	// (x-mcp-header), whose check is the SDK's handler's.
	HeaderBound func(tool string) bool
}

// sharedPool is the sessions a stateless endpoint's calls share, one for
// each protocol version (at most as many as the SDK supports).
type sharedPool struct {
	opts  Transport
	mu    sync.Mutex
	conns map[string]*sharedConn
}

func newSharedPool(o Transport) *sharedPool {
	return &sharedPool{opts: o, conns: map[string]*sharedConn{}}
}

// serve serves r on a shared session, and reports whether it did: false
// leaves r to the SDK's handler, untouched.
func (p *sharedPool) serve(w http.ResponseWriter, r *http.Request) bool {
	aw := answerWriterOf(w)
	if aw == nil {
		return false
	}
	sc, ok := shareable(r, aw.answers.call, p.opts.Methods, p.opts.HeaderBound)
	if !ok {
		return false
	}
	c, err := p.conn(sc.version)
	if err != nil {
		return false
	}
	// The answer is an event stream, as the SDK's: its headers are set
	// before the call can reach the server, where they are read (Bind).
	streamHeaders(aw.Header())
	ex := newExchange(w, sc.version, 1)
	attach(w, ex)
	c.call(r.Context(), ex, &jsonrpc.Request{ID: sc.id, Method: sc.method, Params: sc.params, Extra: requestExtra(r)})
	return true
}

// shareFirst serves the POSTs it can on p's sessions, and the rest with
// sdk.
func shareFirst(p *sharedPool, sdk http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && p.serve(w, r) {
			return
		}
		sdk.ServeHTTP(w, r)
	})
}

// conn returns the shared session's connection of version, connecting a
// new session when there is none or the last one ended.
func (p *sharedPool) conn(version string) (*sharedConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.conns[version]; c != nil && !c.isClosed() {
		return c, nil
	}
	c := newSharedConn()
	// The state the SDK's handler gives a stateless request's session,
	// but for the initialize params of the new protocol, which the first
	// request would otherwise write: every caller sees none but its own.
	state := &mcp.ServerSessionState{InitializeParams: &mcp.InitializeParams{ProtocolVersion: version}}
	if version < standardHeadersVersion {
		state.InitializedParams = &mcp.InitializedParams{}
		state.LogLevel = "info"
	}
	if _, err := p.opts.Connect(context.Background(), c, &mcp.ServerSessionOptions{State: state}); err != nil {
		return nil, err
	}
	p.conns[version] = c
	return c, nil
}
