package httpserve

import (
	"context"
	"net/http"
	"strconv"
	"sync"
)

// A client that hangs up on a POST cancels the calls it carries, under
// every protocol version. The SDK ties a call to its HTTP request only
// from 2026-07-28 (PropagateRequestCancellation); before that, a stateful
// session's calls run in the session's context, and a stateless server
// waits for a call whose client is gone. So the endpoint names each POST
// in a header of its own, which reaches the handler with the request's
// headers, and [RequestContext] finds the request's context by it.
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

// requestHeader carries the name of a POST to the dispatch. A client's own
// value is dropped: it could name another client's request.
const requestHeader = "Mcpcore-Request"

// requests holds each POST being served, by name, and an ended one for
// the last hungUpKept ones whose client hung up. A map under a mutex, not
// a sync.Map: every POST stores and deletes once, and a sync.Map
// allocates an entry for each store.
var requests = struct {
	sync.Mutex
	byName map[uint64]servedPost
	next   uint64
	// hungUp is a ring of the names kept after their POST ended, oldest
	// at hungUpAt once it is full.
	hungUp   [hungUpKept]uint64
	hungUpAt int
}{byName: map[uint64]servedPost{}}

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

// tieRequests names each POST and records its context while it is served.
func tieRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(requestHeader)
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		requests.Lock()
		requests.next++
		name := requests.next
		requests.byName[name] = servedPost{r.Context(), answerWriterOf(w)}
		requests.Unlock()
		defer func() {
			requests.Lock()
			defer requests.Unlock()
			if r.Context().Err() == nil {
				// Answered: every call of the POST has ended.
				delete(requests.byName, name)
				return
			}
			// The client hung up: a call of the POST that has not begun
			// yet must still find its context ended.
			requests.byName[name] = hungUp
			old := requests.hungUp[requests.hungUpAt]
			requests.hungUp[requests.hungUpAt] = name
			requests.hungUpAt = (requests.hungUpAt + 1) % hungUpKept
			if old != 0 {
				delete(requests.byName, old)
			}
		}()
		r.Header.Set(requestHeader, strconv.FormatUint(name, 36))
		next.ServeHTTP(w, r)
	})
}

// RequestContext returns the context of the HTTP request whose headers are
// h, while the request is served: it ends when the client hangs up, and a
// request whose client hung up is found ended for a while after it. It is
// nil for headers of no such request (stdio, a request already answered).
func RequestContext(h http.Header) context.Context {
	v := h.Get(requestHeader)
	if v == "" {
		return nil
	}
	name, err := strconv.ParseUint(v, 36, 64)
	if err != nil {
		return nil
	}
	requests.Lock()
	defer requests.Unlock()
	return requests.byName[name].ctx
}

// CallArrived tells the endpoint that a call of the POST whose headers are
// h has reached the server's handlers: the SDK has then set the headers of
// the POST's answer, and an answer that is an event stream is kept alive
// from the start of the request, before its first event (see keepAlive).
// Headers of no such request (stdio, a request already answered) are
// ignored.
func CallArrived(h http.Header) {
	v := h.Get(requestHeader)
	if v == "" {
		return
	}
	name, err := strconv.ParseUint(v, 36, 64)
	if err != nil {
		return
	}
	requests.Lock()
	w := requests.byName[name].w
	requests.Unlock()
	if w != nil {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.keepers.arrived(w)
	}
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
