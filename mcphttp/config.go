package mcphttp

// AuthMode says how the HTTP endpoint authenticates its callers (see
// [AuthConfig].Mode).
type AuthMode string

// The modes of MCP_AUTH_MODE.
const (
	AuthNone  AuthMode = "none"  // no authentication: NewAuth returns nil
	AuthJWT   AuthMode = "jwt"   // bearer JWTs signed with SecretKey or PublicKey
	AuthOAuth AuthMode = "oauth" // bearer JWTs of an OAuth issuer, verified with its JWKS
)

// AuthConfig is the bearer authentication of the HTTP endpoint, as the
// MCP_AUTH_* and OAUTH_* variables give it (package app reads them). The
// zero value is mode none.
type AuthConfig struct {
	// Mode (MCP_AUTH_MODE) is "" or [AuthNone], [AuthJWT] or [AuthOAuth].
	Mode AuthMode
	// SecretKey (MCP_AUTH_SECRET_KEY, jwt) verifies HS256 tokens; at least
	// 32 characters. It is a secret: NewAuth has the process mask it
	// wherever it would appear, as mcpcore.ServerOptions.Secrets are.
	SecretKey string
	// PublicKey (MCP_AUTH_PUBLIC_KEY, jwt) is a PEM RSA public key that
	// verifies RS256 tokens, instead of or beside SecretKey.
	PublicKey string
	// Issuer (OAUTH_ISSUER_URL) is required in mode oauth, and checked as
	// the tokens' iss in mode jwt when set.
	Issuer string
	// Audience (OAUTH_AUDIENCE) is required as the tokens' aud; ""
	// means ResourceIdentifier.
	Audience string
	// JWKSURI (OAUTH_JWKS_URI, oauth) is where the issuer's keys are
	// fetched; "" means <Issuer>/.well-known/jwks.json.
	JWKSURI string
	// ResourceIdentifier (MCP_SERVER_RESOURCE_IDENTIFIER) is the server's
	// own resource URI, such as https://mcp.example.com/mcp, published in
	// the protected-resource metadata.
	ResourceIdentifier string
	// RequiredScopes (MCP_AUTH_REQUIRED_SCOPES, separated by spaces or
	// commas) are needed by every request to the endpoint; a token without
	// them gets 403 insufficient_scope.
	RequiredScopes []string
}
