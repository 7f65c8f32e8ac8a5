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

// requestHeader carries the name of a POST to the dispatch. A client's own
// value is dropped: it could name another client's request.
const requestHeader = "Mcpcore-Request"

// requests holds the context of each POST being served, by name. A map
// under a mutex, not a sync.Map: every POST stores and deletes once, and
// a sync.Map allocates an entry for each store.
var requests = struct {
	sync.Mutex
	byName map[uint64]context.Context
	next   uint64
}{byName: map[uint64]context.Context{}}

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
		requests.byName[name] = r.Context()
		requests.Unlock()
		defer func() {
			requests.Lock()
			delete(requests.byName, name)
			requests.Unlock()
		}()
		r.Header.Set(requestHeader, strconv.FormatUint(name, 36))
		next.ServeHTTP(w, r)
	})
}

// RequestContext returns the context of the HTTP request whose headers are
// h, while the request is served: it ends when the client hangs up. It is
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
	return requests.byName[name]
}
