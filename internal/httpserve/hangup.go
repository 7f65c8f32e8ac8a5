package httpserve

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
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

var (
	requests   sync.Map // name → the context of a POST being served
	requestSeq atomic.Uint64
)

// tieRequests names each POST and records its context while it is served.
func tieRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(requestHeader)
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		name := strconv.FormatUint(requestSeq.Add(1), 36)
		requests.Store(name, r.Context())
		defer requests.Delete(name)
		r.Header.Set(requestHeader, name)
		next.ServeHTTP(w, r)
	})
}

// RequestContext returns the context of the HTTP request whose headers are
// h, while the request is served: it ends when the client hangs up. It is
// nil for headers of no such request (stdio, a request already answered).
func RequestContext(h http.Header) context.Context {
	name := h.Get(requestHeader)
	if name == "" {
		return nil
	}
	if ctx, ok := requests.Load(name); ok {
		return ctx.(context.Context)
	}
	return nil
}
