package mcpcore

import "net/http"

// An HTTPAuth authenticates the callers of the Streamable HTTP endpoint
// ([ServerOptions].HTTPAuth). Package app listens beyond loopback only
// for a server with one, or told that something in front authenticates
// (MCP_AUTH_ALLOW_UNAUTHENTICATED). Package
// github.com/seed417024ea/mcpcore/mcphttp has the bearer tokens of
// MCP_AUTH_MODE jwt and oauth; the core links no JWT library.
type HTTPAuth interface {
	// Protect stands in front of the endpoint after the checks of a
	// request's form (origin, body, protocol version) and before its
	// session is admitted: it answers a caller it refuses, and lets the
	// others through with their auth.TokenInfo in the request's context,
	// whose UserID the session is bound to and counted under. It logs
	// each refusal to log, which collapses them with the endpoint's other
	// refusals.
	Protect(next http.Handler, log RefusalLog) http.Handler
	// Routes are served beside the endpoint at path, outside Protect (the
	// protected-resource metadata), given the scopes the server's
	// definitions declare; keyed by their http.ServeMux patterns.
	Routes(path string, scopes []string) map[string]http.Handler
	// Scheme names the authentication in the server card's
	// "authentication": "bearer" or "oauth2".
	Scheme() string
}

// A RefusalLog logs the refusals of the HTTP endpoint, at warning, each
// distinct one at once and its repeats collapsed into one record with
// their count (see [ServerOptions].RepeatWindow).
type RefusalLog interface {
	// Refused logs the refusal of r, of kind (the "refusal" attribute,
	// such as invalid_token), with msg and args, slog's key-value pairs
	// that say why: two refusals of a kind are distinct when these
	// differ. The texts a client chose are bounded in the record.
	Refused(r *http.Request, kind, msg string, args ...any)
}
