package httpserve

import (
	"fmt"
	"net/http"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// originGuard returns the middleware that refuses, with 403 and a
// JSON-RPC error, a browser's request from another origin than the
// server's own, as the MCP transport requires of servers (a page on any
// site could otherwise drive a local server through the user's browser);
// the allowed origins (MCP_ALLOWED_ORIGINS) are let in. Requests without
// browser headers (Origin, Sec-Fetch-Site), as other clients send them,
// pass: there is nothing to protect them from. The SDK's own DNS-rebinding
// protection stays on behind it.
func originGuard(allowed []string, log *Refusals) (func(http.Handler) http.Handler, error) {
	p := http.NewCrossOriginProtection()
	for _, o := range allowed {
		if err := p.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("MCP_ALLOWED_ORIGINS: %w", err)
		}
	}
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Refused(r, "foreign_origin", "a browser request from another origin", "origin", r.Header.Get("Origin"))
		writeRPCError(w, http.StatusForbidden, errorAnswer(nil, mcperr.CodeForbidden,
			"Forbidden: requests from this origin are not allowed; list it in the server's MCP_ALLOWED_ORIGINS to let it in."))
	}))
	return p.Handler, nil
}

// CheckOrigins reports a malformed entry of MCP_ALLOWED_ORIGINS.
func CheckOrigins(allowed []string) error {
	_, err := originGuard(allowed, nil)
	return err
}
