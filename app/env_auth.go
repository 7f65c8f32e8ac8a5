package app

import (
	"strings"

	"github.com/seed417024ea/mcpcore/mcphttp"
)

// readAuth reads MCP_AUTH_MODE and the variables of the modes into a, and
// MCP_AUTH_ALLOW_UNAUTHENTICATED into allow; an unset mode stays "",
// which is none. Whether the mode has what it needs is
// mcphttp.AuthConfig.Check's to say.
func (e *env) readAuth(a *mcphttp.AuthConfig, allow *bool) {
	*a = mcphttp.AuthConfig{
		SecretKey:          e.getenv("MCP_AUTH_SECRET_KEY"),
		PublicKey:          e.getenv("MCP_AUTH_PUBLIC_KEY"),
		Issuer:             strings.TrimSpace(e.getenv("OAUTH_ISSUER_URL")),
		Audience:           strings.TrimSpace(e.getenv("OAUTH_AUDIENCE")),
		JWKSURI:            strings.TrimSpace(e.getenv("OAUTH_JWKS_URI")),
		ResourceIdentifier: strings.TrimSpace(e.getenv("MCP_SERVER_RESOURCE_IDENTIFIER")),
	}
	if v := e.getenv("MCP_AUTH_REQUIRED_SCOPES"); v != "" {
		a.RequiredScopes = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	if v := e.getenv("MCP_AUTH_MODE"); v != "" {
		switch m := mcphttp.AuthMode(strings.ToLower(v)); m {
		case mcphttp.AuthNone, mcphttp.AuthJWT, mcphttp.AuthOAuth:
			a.Mode = m
		default:
			e.bad("MCP_AUTH_MODE", v, "none, jwt or oauth")
		}
	}
	if v := e.getenv("MCP_AUTH_ALLOW_UNAUTHENTICATED"); v != "" {
		switch strings.ToLower(v) {
		case "true", "1", "yes":
			*allow = true
		case "false", "0", "no":
		default:
			e.bad("MCP_AUTH_ALLOW_UNAUTHENTICATED", v, "true or false")
		}
	}
}
