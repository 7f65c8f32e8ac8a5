package httpserve

import (
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

// RequestID is the id of the JSON-RPC request whose answer w writes, as
// the body guard read it; nil when there is none (a notification, a batch,
// a GET).
func RequestID(w http.ResponseWriter) json.RawMessage { return callOf(w).id }

// WriteRPCError answers with status and the JSON-RPC error of code and msg
// under id.
func WriteRPCError(w http.ResponseWriter, status int, id json.RawMessage, code mcperr.Code, msg string) {
	writeRPCError(w, status, errorAnswer(id, code, msg))
}
