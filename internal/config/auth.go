package config

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
)

// parseAuth reads MCP_AUTH_MODE and the variables of the modes; an unset
// mode stays "", which resolveAuth makes none.
func parseAuth(getenv func(string) string, errs []error) (AuthConfig, []error) {
	a := AuthConfig{
		SecretKey:          getenv("MCP_AUTH_SECRET_KEY"),
		PublicKey:          getenv("MCP_AUTH_PUBLIC_KEY"),
		Issuer:             strings.TrimSpace(getenv("OAUTH_ISSUER_URL")),
		Audience:           strings.TrimSpace(getenv("OAUTH_AUDIENCE")),
		JWKSURI:            strings.TrimSpace(getenv("OAUTH_JWKS_URI")),
		ResourceIdentifier: strings.TrimSpace(getenv("MCP_SERVER_RESOURCE_IDENTIFIER")),
	}
	if v := getenv("MCP_AUTH_REQUIRED_SCOPES"); v != "" {
		a.RequiredScopes = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if v := getenv("MCP_AUTH_MODE"); v != "" {
		switch m := AuthMode(strings.ToLower(v)); m {
		case AuthNone, AuthJWT, AuthOAuth:
			a.Mode = m
		default:
			fail("MCP_AUTH_MODE=%q: want none, jwt or oauth", v)
		}
	}
	if v := getenv("MCP_AUTH_ALLOW_UNAUTHENTICATED"); v != "" {
		switch strings.ToLower(v) {
		case "true", "1", "yes":
			a.AllowUnauthenticated = true
		case "false", "0", "no":
		default:
			fail("MCP_AUTH_ALLOW_UNAUTHENTICATED=%q: want true or false", v)
		}
	}
	return a, errs
}

// resolveAuth gives the authentication of c its defaults, and checks that
// it makes a server that can verify what it is sent: a mode without its
// key or issuer is a start-up error, not a server that refuses everyone
// (or no one).
func resolveAuth(c Config, errs []error) (AuthConfig, []error) {
	a := c.Auth
	a.RequiredScopes = slices.Clone(a.RequiredScopes)
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch a.Mode {
	case "":
		a.Mode = AuthNone
	case AuthNone, AuthJWT, AuthOAuth:
	default:
		fail("MCP_AUTH_MODE=%q: want none, jwt or oauth", a.Mode)
	}
	if a.Audience == "" {
		a.Audience = a.ResourceIdentifier
	}
	for name, v := range map[string]string{"OAUTH_ISSUER_URL": a.Issuer, "OAUTH_JWKS_URI": a.JWKSURI, "MCP_SERVER_RESOURCE_IDENTIFIER": a.ResourceIdentifier} {
		if v == "" {
			continue
		}
		if u, err := url.Parse(v); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			fail("%s=%q: want an absolute http(s) URL", name, v)
		}
	}
	switch a.Mode {
	case AuthNone:
		if c.Transport == HTTP && !isLoopback(c.HTTPHost) && !a.AllowUnauthenticated {
			fail("MCP_AUTH_MODE=none on MCP_HTTP_HOST=%q would let anyone who reaches the port call every tool: "+
				"set MCP_AUTH_MODE to jwt or oauth, bind to 127.0.0.1, or set MCP_AUTH_ALLOW_UNAUTHENTICATED=true "+
				"if something in front of the server authenticates", c.HTTPHost)
		}
	case AuthJWT:
		switch {
		case a.SecretKey == "" && a.PublicKey == "":
			fail("MCP_AUTH_MODE=jwt needs MCP_AUTH_SECRET_KEY (HS256, at least 32 characters) or MCP_AUTH_PUBLIC_KEY (RS256, PEM)")
		case a.SecretKey != "" && len(a.SecretKey) < 32:
			// The key's value stays out of the message: it is a secret.
			fail("MCP_AUTH_SECRET_KEY has %d characters; it needs at least 32", len(a.SecretKey))
		}
	case AuthOAuth:
		if a.Issuer == "" {
			fail("MCP_AUTH_MODE=oauth needs OAUTH_ISSUER_URL, the issuer whose tokens the server accepts")
		}
		if a.Audience == "" {
			fail("MCP_AUTH_MODE=oauth needs OAUTH_AUDIENCE or MCP_SERVER_RESOURCE_IDENTIFIER: tokens minted for another audience must be refused")
		}
		if a.JWKSURI == "" && a.Issuer != "" {
			a.JWKSURI = strings.TrimSuffix(a.Issuer, "/") + "/.well-known/jwks.json"
		}
	}
	return a, errs
}

// isLoopback reports whether host only listens on this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
