package mcpcore

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// AuthInfo is what the verified bearer token of a call says of its caller
// (see MCP_AUTH_MODE in the package documentation). It holds no part of
// the token itself.
type AuthInfo struct {
	// Subject is the name the caller's sessions and request states are
	// bound to: the token's sub claim; "client:<client_id>" for a token
	// without sub (a client acting for itself); or "sub:<sub>" for a sub
	// that itself begins with "client:" or "sub:", so that no token can
	// pass for another caller.
	Subject string
	// ClientID is the OAuth client that obtained the token: client_id, or
	// else azp or cid.
	ClientID string
	// TenantID is the tid or tenant_id claim, for servers that serve
	// several tenants.
	TenantID string
	// Issuer is the iss claim.
	Issuer string
	// Scopes are the union of the scp, scope and mcp_tool_scopes claims.
	Scopes []string
	// ExpiresAt is when the token expires.
	ExpiresAt time.Time
}

// Auth returns what the call's bearer token says of its caller, or nil
// when the call came without one: over stdio, or over HTTP with
// MCP_AUTH_MODE=none.
func (c *Context) Auth() *AuthInfo {
	if c == nil || c.token == nil {
		return nil
	}
	t := c.token
	str := func(key string) string { s, _ := t.Extra[key].(string); return s }
	return &AuthInfo{
		Subject:   t.UserID,
		ClientID:  str(httpserve.ExtraClientID),
		TenantID:  str(httpserve.ExtraTenantID),
		Issuer:    str(httpserve.ExtraIssuer),
		Scopes:    slices.Clone(t.Scopes),
		ExpiresAt: t.Expiration,
	}
}

// RequireScopes fails with Forbidden (-32005) unless the call's token
// holds every one of scopes; data.missingScopes lists those it lacks. Use
// it for scopes that depend on the input (a scope per project, say); the
// Scopes of a definition are checked before its handler runs. A call
// without a token (stdio, or MCP_AUTH_MODE=none) is not checked: whoever
// can reach the server without a token is trusted as its operator.
//
//	if err := ctx.RequireScopes("project:" + in.Project + ":write"); err != nil {
//		return Out{}, err
//	}
func (c *Context) RequireScopes(scopes ...string) error {
	if c == nil || c.token == nil {
		return nil
	}
	var missing []string
	for _, s := range scopes {
		if !slices.Contains(c.token.Scopes, s) && !slices.Contains(missing, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return mcperr.Forbidden(fmt.Sprintf("Insufficient permissions: this %s needs the scopes %s, which the caller's token does not hold.",
		c.kind, strings.Join(missing, ", ")),
		mcperr.WithData(map[string]any{"missingScopes": missing}), mistake(errMissingScopes))
}

// errMissingScopes is the cause of a missing scope, logged at notice: the
// caller's limit, not the server's fault.
var errMissingScopes = errors.New("the caller's token lacks scopes")
