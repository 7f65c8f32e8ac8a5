package mcphttp

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Check reports every setting of c that would make an authentication
// unable to verify what it is sent, each naming its variable: an unknown
// mode, a URL that is not an absolute http(s) one, mode jwt without a key
// (or with an HS256 key under 32 characters), mode oauth without an
// issuer or an audience. A mode without its key or issuer is a start-up
// error, not a server that refuses everyone (or no one). [NewAuth] checks
// it, and so does package app's ConfigFromEnv, with the other settings of
// the environment. The error never holds a key.
func (c AuthConfig) Check() error {
	a := c.withDefaults()
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch a.Mode {
	case AuthNone, AuthJWT, AuthOAuth:
	default:
		fail("MCP_AUTH_MODE=%q: want none, jwt or oauth", a.Mode)
	}
	for _, u := range []struct{ name, value string }{
		{"OAUTH_ISSUER_URL", a.Issuer}, {"OAUTH_JWKS_URI", c.JWKSURI}, {"MCP_SERVER_RESOURCE_IDENTIFIER", a.ResourceIdentifier},
	} {
		if u.value == "" {
			continue
		}
		if p, err := url.Parse(u.value); err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
			fail("%s=%q: want an absolute http(s) URL", u.name, u.value)
		}
	}
	switch a.Mode {
	case AuthJWT:
		switch {
		case a.SecretKey == "" && a.PublicKey == "":
			fail("MCP_AUTH_MODE=jwt needs MCP_AUTH_SECRET_KEY (HS256, at least 32 characters) or MCP_AUTH_PUBLIC_KEY (RS256, PEM)")
		case a.SecretKey != "" && len(a.SecretKey) < minSecretKeyLen:
			// The key's value stays out of the message: it is a secret.
			fail("MCP_AUTH_SECRET_KEY has %d characters; it needs at least %d", len(a.SecretKey), minSecretKeyLen)
		}
	case AuthOAuth:
		if a.Issuer == "" {
			fail("MCP_AUTH_MODE=oauth needs OAUTH_ISSUER_URL, the issuer whose tokens the server accepts")
		}
		if a.Audience == "" {
			fail("MCP_AUTH_MODE=oauth needs OAUTH_AUDIENCE or MCP_SERVER_RESOURCE_IDENTIFIER: tokens minted for another audience must be refused")
		}
	}
	return errors.Join(errs...)
}

// minSecretKeyLen is the fewest characters of the HS256 key of mode jwt.
const minSecretKeyLen = 32

// withDefaults gives every zero setting of c its default: "" is mode
// none, the audience is the resource identifier, and an OAuth issuer's
// keys are at <issuer>/.well-known/jwks.json.
func (c AuthConfig) withDefaults() AuthConfig {
	c.RequiredScopes = slices.Clone(c.RequiredScopes)
	if c.Mode == "" {
		c.Mode = AuthNone
	}
	if c.Audience == "" {
		c.Audience = c.ResourceIdentifier
	}
	if c.Mode == AuthOAuth && c.JWKSURI == "" && c.Issuer != "" {
		c.JWKSURI = strings.TrimSuffix(c.Issuer, "/") + "/.well-known/jwks.json"
	}
	return c
}
