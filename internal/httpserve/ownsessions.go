package httpserve

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The sessions of a stateful endpoint are its own: an initialize opens a
// session of the server on a connection of the endpoint's (sessionConn),
// and every later request of it is served there, its messages handed over
// already parsed, as over stdio. The SDK's handler decoded each body up to
// three times with a fresh 32 KiB decoder, and then the session decoded the
// params again. The SDK's handler still serves what no session of the
// endpoint's takes: a request without a session but for a lone initialize
// (a ping, a batch that initializes), whose session the SDK opens and
// follows, and a session id the endpoint does not know (its 404).

// ownSessions is the table of a stateful endpoint's sessions.
type ownSessions struct {
	opts Transport
	log  *Refusals

	mu   sync.Mutex
	byID map[string]*sessionConn
}

func newOwnSessions(o Transport, log *Refusals) *ownSessions {
	return &ownSessions{opts: o, log: log, byID: map[string]*sessionConn{}}
}

// ownFirst serves the requests of t's sessions, and an initialize that
// opens one, and the rest with sdk.
func ownFirst(t *ownSessions, sdk http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !t.serve(w, r) {
			sdk.ServeHTTP(w, r)
		}
	})
}

// lookup returns the session id, or nil.
func (t *ownSessions) lookup(id string) *sessionConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byID[id]
}

// serve serves r when it belongs to a session of t's or opens one, and
// reports whether it did. Before the session, the SDK handler's checks of
// every request: the Host of a loopback listener, the version header.
func (t *ownSessions) serve(w http.ResponseWriter, r *http.Request) bool {
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		return r.Method == http.MethodPost && t.initialize(w, r)
	}
	c := t.lookup(id)
	if c == nil {
		return false
	}
	switch r.Method {
	case http.MethodGet, http.MethodPost, http.MethodDelete:
	default:
		return false // the SDK's 405
	}
	if !hostAllowed(r) {
		http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q", r.Host), http.StatusForbidden)
		return true
	}
	if v := r.Header.Get(versionHeader); v != "" && v < standardHeadersVersion && !slices.Contains(supportedVersions, v) {
		http.Error(w, fmt.Sprintf("Bad Request: Unsupported protocol version (supported versions: %s)", strings.Join(supportedVersions, ",")), http.StatusBadRequest)
		return true
	}
	switch r.Method {
	case http.MethodGet:
		t.get(w, r, c)
	case http.MethodPost:
		if !t.postChecks(w, r) || !t.sameUser(w, r, c) {
			return true
		}
		t.post(w, r, c)
	case http.MethodDelete:
		if t.sameUser(w, r, c) {
			_ = c.session.Close()
			w.WriteHeader(http.StatusNoContent)
		}
	}
	return true
}

// postChecks are the SDK handler's checks of a POST's headers.
func (t *ownSessions) postChecks(w http.ResponseWriter, r *http.Request) bool {
	if !jsonContent(r.Header.Get("Content-Type")) {
		http.Error(w, "Content-Type must be 'application/json'", http.StatusUnsupportedMediaType)
		return false
	}
	if !acceptsBoth(r) {
		http.Error(w, "Accept must contain both 'application/json' and 'text/event-stream'", http.StatusBadRequest)
		return false
	}
	return true
}

// sameUser refuses a request of a session that another subject opened.
func (t *ownSessions) sameUser(w http.ResponseWriter, r *http.Request, c *sessionConn) bool {
	if c.user != "" && subjectOf(r) != c.user {
		http.Error(w, "session user mismatch", http.StatusForbidden)
		return false
	}
	return true
}

// initialize opens a session for r when it is a lone initialize that the
// SDK's handler would open one for and serve, and serves it; false leaves
// r to the SDK's handler.
func (t *ownSessions) initialize(w http.ResponseWriter, r *http.Request) bool {
	aw := answerWriterOf(w)
	if aw == nil || aw.answers.call.method != "initialize" {
		return false
	}
	v := r.Header.Get(versionHeader)
	if v != "" && (v >= standardHeadersVersion || !slices.Contains(supportedVersions, v)) ||
		metaVersion(aw.answers.call.params) != "" || !sdkServesPOST(r) {
		return false
	}
	id := rand.Text()
	c := newSessionConn(id, subjectOf(r), func() {
		t.mu.Lock()
		delete(t.byID, id)
		t.mu.Unlock()
	})
	// The initialize POST's context, as the SDK's: its values are the
	// session's (jsonrpc2 keeps them, not its end).
	ss, err := t.opts.Connect(r.Context(), c, nil)
	if err != nil {
		http.Error(w, "failed connection", http.StatusInternalServerError)
		return true
	}
	c.session = ss
	t.mu.Lock()
	t.byID[id] = c
	t.mu.Unlock()
	t.post(w, r, c)
	if ss.InitializeParams() == nil {
		// A failed initialize leaves no session behind.
		_ = ss.Close()
	}
	return true
}

// get serves the GET stream of session c: what the server sends outside
// any call, and keep-alives, until the client leaves or the session ends.
func (t *ownSessions) get(w http.ResponseWriter, r *http.Request, c *sessionConn) {
	if _, streamOK := accepts(r.Header.Values("Accept")); !streamOK {
		http.Error(w, "Accept must contain 'text/event-stream' for GET requests", http.StatusBadRequest)
		return
	}
	if !t.sameUser(w, r, c) {
		return
	}
	if len(r.Header.Values("Last-Event-ID")) > 0 {
		eid := r.Header.Get("Last-Event-ID")
		if !eventID(eid) {
			http.Error(w, fmt.Sprintf("malformed Last-Event-ID %q", eid), http.StatusBadRequest)
			return
		}
		http.Error(w, "stream replay unsupported", http.StatusBadRequest)
		return
	}
	ex := newExchange(w, r.Header.Get(versionHeader), 0)
	c.mu.Lock()
	if c.get != nil {
		c.mu.Unlock()
		http.Error(w, "stream ID conflicts with ongoing stream", http.StatusConflict)
		return
	}
	c.get = ex
	ex.mu.Lock() // nothing goes down the stream before its first line
	c.mu.Unlock()
	streamHeaders(w.Header())
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": ok\n\n")
	flush(w)
	ex.mu.Unlock()
	select {
	case <-r.Context().Done():
	case <-c.closed:
	}
	ex.finish()
	c.mu.Lock()
	if c.get == ex {
		c.get = nil
	}
	c.mu.Unlock()
}

// eventID reports whether a Last-Event-ID has the SDK's form, stream_index.
func eventID(v string) bool {
	parts := strings.Split(v, "_")
	if len(parts) != 2 {
		return false
	}
	n, err := strconv.Atoi(parts[1])
	return err == nil && n >= 0
}
