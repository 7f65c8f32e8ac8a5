package httpserve

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Session is what the endpoint needs of a session the SDK opened: to end
// it when it idles out, and to learn when it ends for any reason (a
// DELETE, the idle timeout, a failed initialize, shutdown).
// *mcp.ServerSession is one.
type Session interface {
	Close() error
	Wait() error
}

// sessionTable follows the sessions of a stateful server from the
// initialize that opens one (the SDK answers it with Mcp-Session-Id) to
// their end, for two things the SDK does not do:
//
//   - The idle timeout counts every request of a session as activity, the
//     GET stream included, for as long as it is open. The SDK's own timer
//     (StreamableHTTPOptions.SessionTimeout) pauses only while a POST is
//     served, so a client that only listens lost its session however long
//     its stream stayed open; the server hands the SDK no timeout and this
//     table keeps it instead.
//   - Each authenticated subject gets a share of the session cap: without
//     it, one token holder could take every session and leave the other
//     subjects a 503.
//
// Without authentication the subject is unknown: a remote address is no
// identity (every client behind one proxy shares one, and one client can
// use many), so only the global cap applies.
type sessionTable struct {
	idle       time.Duration // 0: sessions never idle out
	perSubject int           // 0: no share
	lookup     func(id string) Session
	log        *Refusals

	// initMu admits initializes one at a time, so that two at once cannot
	// both take a subject's last place.
	initMu sync.Mutex

	mu        sync.Mutex
	byID      map[string]*tracked
	bySubject map[string]int
}

// tracked is one open session.
type tracked struct {
	session Session
	subject string
	// refs counts the requests of the session being served; the idle timer
	// runs only while there are none.
	refs  int
	timer *time.Timer
	// gen tells a timer that fired from one that was stopped or replaced
	// meanwhile.
	gen int
}

func newSessionTable(idle time.Duration, perSubject int, lookup func(string) Session, log *Refusals) *sessionTable {
	return &sessionTable{idle: idle, perSubject: perSubject, lookup: lookup, log: log,
		byID: map[string]*tracked{}, bySubject: map[string]int{}}
}

// trackSessions is the endpoint's part of the table: every request that
// names a session of its own subject holds the session's idle timer while
// it is served, and an initialize takes a place in its subject's share.
func trackSessions(t *sessionTable) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if t == nil || t.lookup == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			subject := subjectOf(r)
			if id := r.Header.Get("Mcp-Session-Id"); id != "" {
				if t.hold(id, subject) {
					defer t.release(id)
				}
				next.ServeHTTP(w, r)
				if r.Method == http.MethodDelete && statusOf(w) == http.StatusNoContent {
					// Free the place at once: the next initialize of the
					// subject must not wait for the session's goroutines.
					t.ended(id)
				}
				return
			}
			c := callOf(w)
			if r.Method != http.MethodPost || c.method != "initialize" {
				next.ServeHTTP(w, r)
				return
			}
			t.initMu.Lock()
			defer t.initMu.Unlock()
			if n := t.open(subject); subject != "" && t.perSubject > 0 && n >= t.perSubject {
				t.log.Refused(r, "session_share", "the subject's share of sessions is taken", "sessions", n, "limit", t.perSubject)
				w.Header().Set("Retry-After", "60")
				writeRPCError(w, http.StatusTooManyRequests, errorAnswerData(c.id, mcperr.CodeRateLimited,
					fmt.Sprintf("Too many sessions: this token's subject already holds the most sessions one subject may open (%d, MCP_HTTP_MAX_SESSIONS_PER_SUBJECT). End one you no longer use (HTTP DELETE with its Mcp-Session-Id), or wait for an idle one to time out.", t.perSubject),
					map[string]any{"limit": t.perSubject}))
				return
			}
			sw := &sessionWriter{ResponseWriter: w, table: t, subject: subject}
			next.ServeHTTP(sw, r)
			// The answer may have gone without a header written through sw.
			if id := sw.open(); id != "" {
				t.release(id)
			}
		})
	}
}

// subjectOf is the authenticated subject of r, or "".
func subjectOf(r *http.Request) string {
	if info := auth.TokenInfoFromContext(r.Context()); info != nil {
		return info.UserID
	}
	return ""
}

// statusOf is the status written to w, when the body guard's writer saw it.
func statusOf(w http.ResponseWriter) int {
	if a, ok := w.(*answerWriter); ok {
		return a.answers.status
	}
	return 0
}

// open counts the sessions of subject.
func (t *sessionTable) open(subject string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bySubject[subject]
}

// add starts following the session id of subject, held by the initialize
// being answered (release ends that hold). It reports whether the SDK has
// such a session.
func (t *sessionTable) add(id, subject string) bool {
	s := t.lookup(id)
	if s == nil {
		return false
	}
	t.mu.Lock()
	if _, ok := t.byID[id]; ok {
		// Session ids are unique; an id seen twice is not this
		// initialize's to hold.
		t.mu.Unlock()
		return false
	}
	t.byID[id] = &tracked{session: s, subject: subject, refs: 1}
	t.bySubject[subject]++
	t.mu.Unlock()
	go func() {
		s.Wait()
		t.ended(id)
	}()
	return true
}

// hold stops the idle timer of session id while one of its requests is
// served, and reports whether it did: a request of another subject (which
// the SDK refuses) does not keep someone else's session alive.
func (t *sessionTable) hold(id, subject string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.byID[id]
	if !ok || s.subject != subject {
		return false
	}
	s.refs++
	s.gen++
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	return true
}

// release ends a hold; the last one starts the idle timer.
func (t *sessionTable) release(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.byID[id]
	if !ok {
		return
	}
	if s.refs--; s.refs > 0 || t.idle <= 0 {
		return
	}
	s.gen++
	gen := s.gen
	s.timer = time.AfterFunc(t.idle, func() { t.expire(id, s, gen) })
}

// expire ends session id, unless a request came since its timer started.
func (t *sessionTable) expire(id string, s *tracked, gen int) {
	t.mu.Lock()
	idle := t.byID[id] == s && s.gen == gen && s.refs == 0
	t.mu.Unlock()
	if idle {
		s.session.Close()
	}
}

// ended forgets session id: it gave its subject's place back.
func (t *sessionTable) ended(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.byID[id]
	if !ok {
		return
	}
	delete(t.byID, id)
	if s.timer != nil {
		s.timer.Stop()
	}
	if t.bySubject[s.subject]--; t.bySubject[s.subject] <= 0 {
		delete(t.bySubject, s.subject)
	}
}

// sessionWriter sees the answer to an initialize: the Mcp-Session-Id the
// SDK sets on it names the session opened, which the table follows from
// the moment the answer starts, before the client can send another request
// of it.
type sessionWriter struct {
	http.ResponseWriter
	table   *sessionTable
	subject string
	seen    bool
	id      string // the session added, held until the initialize ends
}

func (w *sessionWriter) see() {
	if w.seen {
		return
	}
	w.seen = true
	if id := w.Header().Get("Mcp-Session-Id"); id != "" && w.table.add(id, w.subject) {
		w.id = id
	}
}

// open is the session the initialize opened, or "".
func (w *sessionWriter) open() string {
	w.see()
	return w.id
}

func (w *sessionWriter) WriteHeader(status int) {
	w.see()
	w.ResponseWriter.WriteHeader(status)
}

func (w *sessionWriter) Write(b []byte) (int, error) {
	w.see()
	return w.ResponseWriter.Write(b)
}

func (w *sessionWriter) Flush() {
	w.see()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *sessionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
