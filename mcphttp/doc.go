// Package mcphttp is the bearer authentication of an mcpcore server's
// Streamable HTTP endpoint: the JWTs of MCP_AUTH_MODE=jwt (HS256 with a
// shared secret, RS256 with a public key) and of MCP_AUTH_MODE=oauth (an
// OAuth 2.1 issuer's tokens, verified with the keys of its JWKS, which it
// fetches and refreshes in the background), and the protected-resource
// metadata of RFC 9728 that tells a client where to get a token.
//
// [NewAuth] builds it from an [AuthConfig]; pass it to the server as
// mcpcore.ServerOptions.HTTPAuth:
//
//	auth, err := mcphttp.NewAuth(ctx, mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: key}, logger)
//	…
//	srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{HTTPAuth: auth}, defs...)
//
// Package app does this from the environment. The endpoint runs the
// authentication after the checks of a request's form (origin, body,
// protocol version) and before its session, so that a session is bound to
// the token's subject and counted under it. This is the one package of
// the module that links golang-jwt/jwt and jwkset: a server that does not
// import it links neither.
package mcphttp
