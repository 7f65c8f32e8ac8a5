package httpserve

import (
	"net/http"
	"sync/atomic"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// What the endpoint does for a server that shuts down: the server waits for
// the answers of its last calls to go out before it ends their sessions,
// and no session opens once it drains, so that the HTTP server it is
// mounted in has no new stream to wait for.

// countPosts counts in n the POSTs to the endpoint being served. A call
// leaves the server's count of calls in flight when its handler returns, a
// moment before the SDK writes its answer on the POST's response; ending
// the call's session would end that response unwritten, so shutdown waits
// for n to fall to zero first.
func countPosts(n *atomic.Int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if n == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				next.ServeHTTP(w, r)
				return
			}
			n.Add(1)
			defer n.Add(-1)
			next.ServeHTTP(w, r)
		})
	}
}

// refuseWhileDraining refuses, with 503 and a JSON-RPC error, once
// draining reports true, the requests that would start work the server is
// about to drop. Stateful, an initialize that would open a session: the
// server is about to end every session, and a session opened now would
// only hold a GET stream open that the HTTP server's own Shutdown waits
// for. Stateless, every request: none has begun, so a balancer may send it
// to another replica (haproxy's retry-on 503), where a call refused with
// an error result would have failed for its client in the second between
// SIGTERM and the balancer's next health check. The client retries
// elsewhere (the readiness probe already says 503).
func refuseWhileDraining(draining func() bool, stateless bool, log *Refusals) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if draining == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := callOf(w)
			starts := c.method == "initialize" && r.Header.Get("Mcp-Session-Id") == ""
			if stateless {
				starts = c.method != ""
			}
			if !starts || !draining() {
				next.ServeHTTP(w, r)
				return
			}
			log.Refused(r, "shutting_down", "the server is shutting down")
			w.Header().Set("Retry-After", "1")
			writeRPCError(w, http.StatusServiceUnavailable, errorAnswer(c.id, mcperr.CodeServiceUnavailable,
				"The server is shutting down; retry the request on a new connection."))
		})
	}
}
