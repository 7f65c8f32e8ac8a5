package mcphttp

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Scheme names the authentication in the server card: "bearer" for mode
// jwt, "oauth2" for mode oauth.
func (a *Auth) Scheme() string {
	if a.keys != nil {
		return "oauth2"
	}
	return "bearer"
}

// MetadataPath is where the protected-resource metadata of RFC 9728 is
// served, and where WWW-Authenticate sends clients that lack a token.
const MetadataPath = httpserve.MetadataPath

// Auth authenticates the callers of the MCP endpoint with bearer tokens,
// through the SDK's auth middleware.
type Auth struct {
	verify   verifier
	resource string // MCP_SERVER_RESOURCE_IDENTIFIER; "" derives it from each request
	issuer   string // the authorization server clients are sent to, if known
	required []string
	keys     *jwksCache // the OAuth issuer's keys; nil in jwt mode
}

// NewAuth returns the authentication that cfg configures (its zero
// settings take their defaults), or nil for mode none; pass it as
// [mcpcore.ServerOptions].HTTPAuth. ctx ends the
// background refresh of an OAuth issuer's keys, whose fetches are logged
// to logger (nil: not logged), through the redaction of the server's own
// records. Refused tokens are logged by the endpoint it protects,
// collapsed with its other refusals. A configuration it cannot serve is
// an error with code ConfigurationError that names the variable.
//
// NewAuth does not wait for an OAuth issuer: its keys are fetched in the
// background, and tokens are refused, saying why, until they arrive.
func NewAuth(ctx context.Context, cfg AuthConfig, logger *slog.Logger) (mcpcore.HTTPAuth, error) {
	err := cfg.Check()
	if err == nil {
		cfg = cfg.withDefaults()
		// The key verifies tokens, and would forge them.
		if cfg.Mode == AuthJWT && cfg.SecretKey != "" {
			err = redact.Keep(cfg.SecretKey)
		}
	}
	if err == nil {
		if logger != nil {
			logger = slog.New(redact.Handler(logger.Handler()))
		}
		var a *Auth
		if a, err = newAuth(ctx, cfg, logger, jwksOptions{}); err == nil {
			if a == nil {
				return nil, nil // no typed nil, which would read as an authentication
			}
			return a, nil
		}
	}
	return nil, mcperr.New(mcperr.CodeConfigurationError, "mcpcore: bad configuration: "+err.Error(), mcperr.WithCause(err))
}

// newAuth is NewAuth on a checked configuration with its defaults, with
// the bounds of the JWKS fetches, which tests shorten.
func newAuth(ctx context.Context, cfg AuthConfig, logger *slog.Logger, jwks jwksOptions) (*Auth, error) {
	a := &Auth{resource: cfg.ResourceIdentifier, required: cfg.RequiredScopes}
	var err error
	switch cfg.Mode {
	case AuthJWT:
		a.verify, err = jwtVerifier(cfg)
	case AuthOAuth:
		a.issuer = cfg.Issuer
		a.verify, a.keys, err = oauthVerifier(ctx, cfg, jwks, logger)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Protect lets a request through only with a valid bearer token that holds
// the required scopes. The SDK's middleware answers a missing or invalid
// token (401, WWW-Authenticate with resource_metadata) and puts the
// token's auth.TokenInfo in the request's context for the handlers.
// Refusals are logged to log. A nil Auth (mode none) lets every request
// through.
func (a *Auth) Protect(next http.Handler, log mcpcore.RefusalLog) http.Handler {
	if a == nil {
		return next
	}
	scoped := a.requireScopes(next, log)
	verify := func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		return a.verify(ctx, token, r, log)
	}
	if a.resource != "" {
		return auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: a.metadataURL(nil), ClockSkew: leeway})(scoped)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opts := &auth.RequireBearerTokenOptions{ResourceMetadataURL: a.metadataURL(r), ClockSkew: leeway}
		auth.RequireBearerToken(verify, opts)(scoped).ServeHTTP(w, r)
	})
}

// requireScopes refuses a token without the scopes every request needs,
// with 403 and the challenge of RFC 6750 (error="insufficient_scope"),
// which the SDK's own scope check does not send.
func (a *Auth) requireScopes(next http.Handler, log mcpcore.RefusalLog) http.Handler {
	if len(a.required) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var held []string
		if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
			held = ti.Scopes
		}
		var missing []string
		for _, s := range a.required {
			if !slices.Contains(held, s) {
				missing = append(missing, s)
			}
		}
		if len(missing) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		log.Refused(r, "insufficient_scope", "token without the required scopes", "missing", missing)
		w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer error=%q, scope=%q, resource_metadata=%q",
			"insufficient_scope", strings.Join(a.required, " "), a.metadataURL(r)))
		httpserve.WriteRPCError(w, http.StatusForbidden, httpserve.RequestID(w), mcperr.CodeForbidden,
			"Forbidden: the token lacks the scopes this server requires ("+strings.Join(missing, ", ")+"). Ask the authorization server for a token with them.")
	})
}

// Routes serve the protected-resource metadata of the endpoint at path, at
// MetadataPath and, as RFC 9728 derives it for the resource path, at
// MetadataPath + path.
func (a *Auth) Routes(path string, scopes []string) map[string]http.Handler {
	if a == nil {
		return nil
	}
	supported := slices.Compact(slices.Sorted(slices.Values(slices.Concat(scopes, a.required))))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource:               a.resourceOf(r, path),
			AuthorizationServers:   nonEmpty(a.issuer),
			ScopesSupported:        supported,
			BearerMethodsSupported: []string{"header"},
		}).ServeHTTP(w, r)
	})
	return map[string]http.Handler{MetadataPath: h, MetadataPath + path: h}
}

// resourceOf is the server's resource identifier: the configured one, or
// the endpoint's URL as the request reached it.
func (a *Auth) resourceOf(r *http.Request, path string) string {
	if a.resource != "" {
		return a.resource
	}
	return origin(r) + path
}

// metadataURL is the absolute URL of the metadata, for WWW-Authenticate;
// r is nil when the resource identifier is configured.
func (a *Auth) metadataURL(r *http.Request) string {
	if a.resource != "" {
		u, _ := url.Parse(a.resource) // checked by AuthConfig.Check
		return u.Scheme + "://" + u.Host + MetadataPath
	}
	return origin(r) + MetadataPath
}

// origin is the scheme and host a request was sent to. Behind a proxy
// that ends TLS, X-Forwarded-Proto says https.
func origin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
