package httpserve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/repeats"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// guardBody checks the body of every POST with rpcguard.Check before the
// rest of the chain reads it, reading at most limit bytes within timeout:
// a body declared larger than limit is refused before a byte is read, and
// a client that trickles its body loses the connection when timeout
// passes, rather than holding it for good. (The deadline covers the body
// only: streams that stay open by design, and long calls, are not cut.)
// Every refusal behind it, the SDK's included, becomes a JSON-RPC error
// (see jsonRPCAnswers).
func guardBody(limit int64, timeout time.Duration, stateless bool, log *Refusals) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost && r.Body != nil && r.Body != http.NoBody {
				// No one would read it, and a trickled one would hold the
				// connection.
				method := ellipsis(r.Method, 32) // the client's word, up to the header bound
				log.Refused(r, "stray_body", "a body on a "+method)
				w.Header().Set("Connection", "close")
				writeRPCError(w, http.StatusBadRequest, errorAnswer(nil, mcperr.CodeInvalidRequest,
					"Invalid request: a "+method+" to this endpoint carries no body."))
				return
			}
			if r.Method != http.MethodPost || r.Body == nil {
				answerRefusals(w, r, call{}, log)
				next.ServeHTTP(w, r)
				return
			}
			if r.ContentLength > limit {
				log.Refused(r, "body_too_large", "request body over the limit", "limit", limit, "declared", r.ContentLength)
				writeRPCError(w, http.StatusRequestEntityTooLarge, rpcguard.TooLarge(limit))
				return
			}
			rc := http.NewResponseController(w)
			deadline := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
			if deadline && err == nil {
				// On an error the deadline stays: the server's discard of
				// the rest of the body must not wait on a trickle.
				rc.SetReadDeadline(time.Time{})
			}
			if err != nil {
				w.Header().Set("Connection", "close")
				if _, tooLarge := errchain.As[*http.MaxBytesError](err); tooLarge {
					log.Refused(r, "body_too_large", "request body over the limit", "limit", limit)
					writeRPCError(w, http.StatusRequestEntityTooLarge, rpcguard.TooLarge(limit))
					return
				}
				// A body too slow, or a client gone mid-body: the
				// connection is unusable; answer for whoever still reads.
				log.Refused(r, "body_timeout", "request body too slow or cut", "timeout", timeout.String())
				writeRPCError(w, http.StatusRequestTimeout, errorAnswer(nil, mcperr.CodeInvalidRequest,
					"The request body did not arrive in time, or the connection broke while it was read."))
				return
			}
			if answer := rpcguard.Check(body); answer != nil {
				writeRPCError(w, http.StatusBadRequest, answer)
				return
			}
			c := readCall(body)
			if c.method == "tools/call" {
				// MCP 2025-11-25's params.task, which the SDK would drop:
				// lifted once here, for the SDK's handler and the
				// endpoint's own sessions alike.
				if lifted := rpcguard.LiftTaskInBody(body); len(lifted) != len(body) {
					body, c = lifted, readCall(lifted)
					r.ContentLength = int64(len(body))
				}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			if !stateless && r.Header.Get("Mcp-Session-Id") == "" {
				c.sessionless = rpcguard.BeforeInitialize(body)
			}
			answerRefusals(w, r, c, log)
			next.ServeHTTP(w, r)
		})
	}
}

// requireSession refuses, with 400 and -32600, a call that needs a session
// and comes without one, to a server with sessions: the SDK would answer
// it with code 0, which is no JSON-RPC code.
func requireSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if answer := callOf(w).sessionless; answer != nil {
			writeRPCError(w, http.StatusBadRequest, answer)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitSessions refuses an initialize that would open more than max
// sessions, as counted by count, with 503 and a JSON-RPC error: each
// session holds memory until it ends or idles out, and a client that
// initializes in a loop must not take it all. Initializes are admitted one
// at a time, so that two at once cannot both take the last place.
func limitSessions(max int, count func() int, log *Refusals) func(http.Handler) http.Handler {
	var mu sync.Mutex
	return func(next http.Handler) http.Handler {
		if max <= 0 || count == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := callOf(w)
			if c.method != "initialize" || r.Header.Get("Mcp-Session-Id") != "" {
				next.ServeHTTP(w, r)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if n := count(); n >= max {
				log.Refused(r, "session_limit", "session limit reached", "sessions", n, "limit", max)
				w.Header().Set("Retry-After", "60")
				writeRPCError(w, http.StatusServiceUnavailable, errorAnswer(c.id, mcperr.CodeServiceUnavailable,
					fmt.Sprintf("Server busy: it already serves the most sessions it allows (%d). Retry later, or end a session you no longer use (HTTP DELETE with its Mcp-Session-Id).", max)))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Refusals logs the refusals of the HTTP surface, at warning, through the
// server's collapser of repeats: the first of each distinct refusal at
// once, and the ones that follow within its window in one record with
// their count, so that a flood of refused requests costs no flood of
// records. Refusals of one kind (invalid_token, say) are distinct when
// their messages or the attributes that say why they were refused differ
// (why, status, missing scopes, origin, limit): an expired token's refusal
// is never counted under another's "lacks a required claim".
type Refusals struct {
	logger  *slog.Logger
	repeats *repeats.Collapser
}

func newRefusals(logger *slog.Logger, r *repeats.Collapser) *Refusals {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Refusals{logger: logger, repeats: r}
}

// ofTheRequest names the attributes of a refusal that describe the one
// request rather than why it was refused: each record has them, but they
// do not tell two refusals apart, and a summary of many requests leaves
// them out rather than show the first request's.
var ofTheRequest = map[string]bool{"remote": true, "path": true, "declared": true, "sessions": true}

// Refused logs one refusal of kind, unless the collapser counts it in a
// summary. args are the refusal's attributes, as slog's key-value pairs.
// Their texts, which may be the client's (an Origin header), are bounded
// (repeats.Bounded), as are those of the request, so that no record holds
// more than a few hundred bytes of what a client sent.
func (l *Refusals) Refused(r *http.Request, kind, msg string, args ...any) {
	var rec slog.Record
	rec.Add(args...)
	attrs := make([]slog.Attr, 0, rec.NumAttrs()+3)
	rec.Attrs(func(a slog.Attr) bool {
		if !ofTheRequest[a.Key] {
			attrs = append(attrs, repeats.BoundedAttr(a))
		}
		return true
	})
	attrs = append(attrs, slog.String("refusal", kind))
	why := len(attrs)
	rec.Attrs(func(a slog.Attr) bool {
		if ofTheRequest[a.Key] {
			attrs = append(attrs, repeats.BoundedAttr(a))
		}
		return true
	})
	attrs = append(attrs, slog.String("remote", repeats.Bounded(r.RemoteAddr)), slog.String("path", repeats.Bounded(r.URL.Path)))
	msg = "mcpcore: HTTP request refused: " + msg
	if l.repeats.Admit("HTTP refusal "+kind, slog.LevelWarn, msg, attrs[:why:why]) {
		l.logger.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
	}
}

// boundStrayBodies bounds the bodies that no handler reads, those of the
// requests outside the endpoint (a POST to a probe, say): the server would
// read what is left of them before it answers, for as long as a client
// trickles them. Such a connection closes after its answer, and its reads
// have timeout.
func boundStrayBodies(path string, timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody && r.URL.Path != path {
			w.Header().Set("Connection", "close")
			http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
		}
		next.ServeHTTP(w, r)
	})
}
