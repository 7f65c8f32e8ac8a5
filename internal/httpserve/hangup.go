package httpserve

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// A client that hangs up on a POST cancels the calls it carries, under
// every protocol version. The SDK ties a call to its HTTP request only
// from 2026-07-28 (PropagateRequestCancellation); before that, a stateful
// session's calls run in the session's context, and a stateless server
// waits for a call whose client is gone. So the endpoint names each POST
// in a header of its own, which reaches the handler with the request's
// headers, and [Endpoints.RequestContext] finds the request's context by
// it.
//
// A call can begin after its POST is over: the SDK queues the messages of
// a POST before it waits for their answers, and stops waiting as soon as
// the client hangs up, while the call may still sit in the session's
// queue. Under load that happened to about one call in five whose client
// gave up after 20 ms; and when the client's notifications/cancelled then
// reached the SDK before the call did, the SDK dropped it (it cancels only
// calls it already holds), so the call ran to its end for no one. The
// names of the POSTs whose client hung up before their answer therefore
// stay known, with their ended context, for a while after.
//
// The POSTs are the endpoint's state, not the process's: a server finds
// its calls' POSTs among its own endpoints only, so two servers in one
// process never see each other's.

// requestHeader carries the name of a POST to the dispatch: the number of
// its endpoint among the server's, and its own number there, in base 36
// ("0.1f"). A client's own value is dropped: it could name another
// client's request.
const requestHeader = "Mcpcore-Request"

// Endpoints are the HTTP endpoints of one server (one for each handler it
// builds), each with the table of the POSTs it serves. The zero value has
// none.
type Endpoints struct {
	mu sync.Mutex // serialises add
	// tables, by endpoint number: read on every call without a lock, and
	// replaced whole when an endpoint is added.
	tables atomic.Pointer[[]*postTable]
}

// add returns the table of a new endpoint.
func (e *Endpoints) add() *postTable {
	e.mu.Lock()
	defer e.mu.Unlock()
	var tables []*postTable
	if old := e.tables.Load(); old != nil {
		tables = *old
	}
	t := &postTable{prefix: strconv.FormatUint(uint64(len(tables)), 36) + ".", byName: map[uint64]servedPost{}}
	tables = append(tables[:len(tables):len(tables)], t)
	e.tables.Store(&tables)
	return t
}

// RequestContext returns the context of the HTTP request whose headers are
// h, while one of e's endpoints serves it: it ends when the client hangs
// up, and a request whose client hung up is found ended for a while after
// it. It is nil for headers of no such request (stdio, a request already
// answered, another server's), and for a POST served on the endpoint's
// own sessions, which cancel its calls themselves.
func (e *Endpoints) RequestContext(h http.Header) context.Context {
	t, name, ok := e.post(h)
	if !ok {
		return nil
	}
	p := t.lookup(name)
	if w := p.w; w != nil {
		w.mu.Lock()
		own := w.exchange != nil
		w.mu.Unlock()
		if own {
			// Served on a session of the endpoint's own, whose
			// connection cancels the calls of a POST whose client
			// hangs up.
			return nil
		}
	}
	return p.ctx
}

// Bind tells the endpoint that a call of the POST whose headers are h has
// reached the server's handlers, and returns the context the call runs
// in. The SDK has then set the headers of the POST's answer, and an
// answer that is an event stream is kept alive from the start of the
// request, before its first event (see keepAlive). A call served on a
// shared session (see sharedPool) gets a context that also carries the
// values of its POST's (a user's HTTP middleware sets some), after the
// session's, and the exchange its notifications are written to. Headers of
// no request of e's (stdio, a request already answered) leave ctx as it
// is.
func (e *Endpoints) Bind(ctx context.Context, h http.Header) context.Context {
	t, name, ok := e.post(h)
	if !ok {
		return ctx
	}
	p := t.lookup(name)
	w := p.w
	if w == nil {
		return ctx
	}
	w.mu.Lock()
	w.keepers.arrived(w)
	ex := w.exchange
	w.mu.Unlock()
	if ex == nil {
		return ctx
	}
	return boundContext{Context: ctx, post: p.ctx, ex: ex}
}

// A boundContext is the context of a call served on a shared session:
// the session's, with the values of the call's POST after its own, and
// the exchange of the POST.
type boundContext struct {
	context.Context
	post context.Context
	ex   *exchange
}

func (c boundContext) Value(key any) any {
	if _, ok := key.(exchangeKey); ok {
		return c.ex
	}
	if v := c.Context.Value(key); v != nil {
		return v
	}
	return c.post.Value(key)
}

// post finds the endpoint table and the name of the POST that h names.
func (e *Endpoints) post(h http.Header) (*postTable, uint64, bool) {
	v := h.Get(requestHeader)
	if v == "" {
		return nil, 0, false
	}
	table, name, ok := strings.Cut(v, ".")
	if !ok {
		return nil, 0, false
	}
	i, err := strconv.ParseUint(table, 36, 64)
	if err != nil {
		return nil, 0, false
	}
	n, err := strconv.ParseUint(name, 36, 64)
	if err != nil {
		return nil, 0, false
	}
	tables := e.tables.Load()
	if tables == nil || i >= uint64(len(*tables)) {
		return nil, 0, false
	}
	return (*tables)[i], n, true
}

// A postTable holds each POST one endpoint is serving, by name, and an
// ended one for the last hungUpKept ones whose client hung up. A map under
// a mutex, not a sync.Map: every POST stores and deletes once, and a
// sync.Map allocates an entry for each store.
type postTable struct {
	prefix string // the endpoint's part of requestHeader ("0.")
	mu     sync.Mutex
	byName map[uint64]servedPost
	next   uint64
	// hungUp is a ring of the names kept after their POST ended, oldest
	// at hungUpAt once it is full; made at the first hang-up.
	hungUp   []uint64
	hungUpAt int
}

// A servedPost is what the calls of a POST find of it: its context, and the
// writer of its answer (nil once it is over).
type servedPost struct {
	ctx context.Context
	w   *answerWriter
}

// hungUp is what is kept of a POST whose client hung up: an ended
// context, holding nothing of the request.
var hungUp = func() servedPost {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return servedPost{ctx: ctx}
}()

// hungUpKept bounds the POSTs remembered after their client hung up, at
// 8 bytes of ring and one map entry each: a call waits in its session's
// queue for moments, while thousands of POSTs hang up only under a flood.
const hungUpKept = 4096

// tie names each POST and records its context while it is served.
func (t *postTable) tie(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(requestHeader)
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		name := t.open(servedPost{r.Context(), answerWriterOf(w)})
		defer func() { t.close(name, r.Context().Err() != nil) }()
		r.Header.Set(requestHeader, t.header(name))
		next.ServeHTTP(w, r)
	})
}

// header is the value of requestHeader that names the POST name, built in
// one allocation.
func (t *postTable) header(name uint64) string {
	b := make([]byte, 0, 32)
	b = append(b, t.prefix...)
	return string(strconv.AppendUint(b, name, 36))
}

// open records a POST being served, and returns its name.
func (t *postTable) open(p servedPost) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	t.byName[t.next] = p
	return t.next
}

// close forgets a POST once it is answered; one whose client hung up stays
// known, ended, for a call of it that has not begun yet.
func (t *postTable) close(name uint64, hungUpOn bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !hungUpOn {
		// Answered: every call of the POST has ended.
		delete(t.byName, name)
		return
	}
	t.byName[name] = hungUp
	if t.hungUp == nil {
		t.hungUp = make([]uint64, hungUpKept)
	}
	old := t.hungUp[t.hungUpAt]
	t.hungUp[t.hungUpAt] = name
	t.hungUpAt = (t.hungUpAt + 1) % hungUpKept
	if old != 0 {
		delete(t.byName, old)
	}
}

// lookup returns the POST named name; its zero value when there is none.
func (t *postTable) lookup(name uint64) servedPost {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byName[name]
}

// answerWriterOf is the endpoint's answerWriter under w, or nil.
func answerWriterOf(w http.ResponseWriter) *answerWriter {
	for {
		switch x := w.(type) {
		case *answerWriter:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}
