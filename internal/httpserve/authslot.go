package httpserve

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// The keys of auth.TokenInfo.Extra that an authentication fills from a
// token's claims, besides TokenInfo.UserID and Scopes. UserID is the name a
// session is bound to: the sub claim, "client:" + the client id when
// there is no sub, and "sub:" + sub for a sub that begins with "client:"
// or "sub:", so that no two callers share it. ExtraSubject is the sub
// claim as the token has it, "" when there is none.
const (
	ExtraSubject  = "sub"
	ExtraClientID = "client_id" // client_id, or else azp or cid
	ExtraTenantID = "tenant_id" // tid, or else tenant_id
	ExtraIssuer   = "iss"
)

// MetadataPath is where the protected-resource metadata of RFC 9728 is
// served, and where WWW-Authenticate sends clients that lack a token.
const MetadataPath = "/.well-known/oauth-protected-resource"

type refusalsKey struct{}

// withRefusals runs the authentication with the endpoint's refusal log in
// its requests' context, so that its refusals are collapsed with the
// endpoint's own. Only an authenticated endpoint pays for the context.
func withRefusals(log *Refusals, authenticate func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		h := authenticate(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), refusalsKey{}, log)))
		})
	}
}

// RefusalsOf is the refusal log of the endpoint r came to; one that logs
// nothing outside an endpoint.
func RefusalsOf(r *http.Request) *Refusals {
	if l, ok := r.Context().Value(refusalsKey{}).(*Refusals); ok {
		return l
	}
	return newRefusals(nil, nil)
}

// RequestID is the id of the JSON-RPC request whose answer w writes, as
// the body guard read it; nil when there is none (a notification, a batch,
// a GET).
func RequestID(w http.ResponseWriter) json.RawMessage { return callOf(w).id }

// WriteRPCError answers with status and the JSON-RPC error of code and msg
// under id.
func WriteRPCError(w http.ResponseWriter, status int, id json.RawMessage, code mcperr.Code, msg string) {
	writeRPCError(w, status, errorAnswer(id, code, msg))
}
