package httpserve

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/seed417024ea/mcpcore/internal/config"
	"golang.org/x/time/rate"
)

// leeway is the clock skew tolerated on exp, nbf and iat.
const leeway = 30 * time.Second

// jwtVerifier verifies tokens signed with the configured HS256 secret or
// RS256 public key (MCP_AUTH_MODE=jwt). Only the configured algorithms are
// accepted, so that a token cannot choose how it is checked.
func jwtVerifier(cfg config.AuthConfig, log *refusals) (auth.TokenVerifier, error) {
	var methods []string
	var public *rsa.PublicKey
	if cfg.PublicKey != "" {
		var err error
		if public, err = jwt.ParseRSAPublicKeyFromPEM([]byte(cfg.PublicKey)); err != nil {
			return nil, fmt.Errorf("MCP_AUTH_PUBLIC_KEY is not a PEM RSA public key: %w", err)
		}
		methods = append(methods, jwt.SigningMethodRS256.Alg())
	}
	if cfg.SecretKey != "" {
		methods = append(methods, jwt.SigningMethodHS256.Alg())
	}
	secret := []byte(cfg.SecretKey)
	key := func(t *jwt.Token) (any, error) {
		if t.Method.Alg() == jwt.SigningMethodRS256.Alg() {
			return public, nil
		}
		return secret, nil
	}
	opts := []jwt.ParserOption{jwt.WithValidMethods(methods), jwt.WithExpirationRequired(), jwt.WithLeeway(leeway)}
	if cfg.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(cfg.Issuer))
	}
	if cfg.Audience != "" {
		opts = append(opts, jwt.WithAudience(cfg.Audience))
	}
	parser := jwt.NewParser(opts...)
	return func(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		return verifyToken(parser, token, key, r, log)
	}, nil
}

// oauthVerifier verifies the tokens of an OAuth issuer (MCP_AUTH_MODE=
// oauth) with the keys of its JWKS, which keyfunc fetches, refreshes every
// hour, and fetches again when a token names a key it does not know (a
// rotation), at most once in 30 seconds so that tokens with made-up key
// ids cannot turn the server against the issuer. Issuer, audience (the
// server's own resource) and expiry are required.
func oauthVerifier(ctx context.Context, cfg config.AuthConfig, log *refusals, logger *slog.Logger) (auth.TokenVerifier, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	k, err := keyfunc.NewDefaultOverrideCtx(ctx, []string{cfg.JWKSURI}, keyfunc.Override{
		Client:      &http.Client{Timeout: 10 * time.Second},
		HTTPTimeout: 10 * time.Second,
		// A request waits this long at most for its turn to refresh.
		RateLimitWaitMax:  250 * time.Millisecond,
		RefreshUnknownKID: rate.NewLimiter(rate.Every(30*time.Second), 1),
		RefreshErrorHandlerFunc: func(u string) func(context.Context, error) {
			return func(ctx context.Context, err error) {
				logger.WarnContext(ctx, "mcpcore: fetching the OAuth issuer's keys failed; tokens signed with keys not yet known are refused",
					"jwks_uri", u, "error", err.Error())
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("OAUTH_JWKS_URI: %w", err)
	}
	parser := jwt.NewParser(
		// Asymmetric algorithms only: a JWKS holds public keys.
		jwt.WithValidMethods([]string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}),
		jwt.WithIssuer(cfg.Issuer), jwt.WithAudience(cfg.Audience),
		jwt.WithExpirationRequired(), jwt.WithLeeway(leeway))
	return func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		return verifyToken(parser, token, k.KeyfuncCtx(ctx), r, log)
	}, nil
}

// claims are the claims read from a token: the registered ones, the
// scopes of the three claims that carry them, and the caller's identity.
type claims struct {
	jwt.RegisteredClaims
	Scp        words  `json:"scp"`
	Scope      words  `json:"scope"`
	ToolScopes words  `json:"mcp_tool_scopes"`
	ClientID   string `json:"client_id"`
	AZP        string `json:"azp"`
	CID        string `json:"cid"`
	TID        string `json:"tid"`
	TenantID   string `json:"tenant_id"`
}

// verifyToken parses and checks token, and returns what it says of its
// bearer. A refusal is an auth.ErrInvalidToken with a message of our own
// that names no part of the token (the SDK sends it to the client), and is
// logged without the token.
func verifyToken(p *jwt.Parser, token string, key jwt.Keyfunc, r *http.Request, log *refusals) (*auth.TokenInfo, error) {
	var c claims
	if _, err := p.ParseWithClaims(token, &c, key); err != nil {
		why := refusalOf(err)
		log.refused(r, "invalid_token", "invalid bearer token", "why", why)
		return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, why)
	}
	// The SDK binds a session to its user: a token must say who that is.
	user := c.Subject
	if clientID := firstOf(c.ClientID, c.AZP, c.CID); user == "" && clientID != "" {
		user = "client:" + clientID
	}
	if user == "" {
		log.refused(r, "invalid_token", "invalid bearer token", "why", "no subject")
		return nil, fmt.Errorf("%w: the token names no subject (sub) and no client (client_id)", auth.ErrInvalidToken)
	}
	info := &auth.TokenInfo{
		UserID: user,
		Scopes: slices.Compact(slices.Sorted(slices.Values(slices.Concat(c.Scp, c.Scope, c.ToolScopes)))),
		Extra: map[string]any{
			ExtraClientID: firstOf(c.ClientID, c.AZP, c.CID),
			ExtraTenantID: firstOf(c.TID, c.TenantID),
			ExtraIssuer:   c.Issuer,
		},
	}
	if c.ExpiresAt != nil {
		info.Expiration = c.ExpiresAt.Time
	}
	return info, nil
}

// refusalOf says why a token was refused, in words of our own.
func refusalOf(err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "the token is not a well-formed JWT"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "the token has expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet), errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return "the token is not valid yet"
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return "the token was issued for another audience"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return "the token was issued by an issuer this server does not trust"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return "the token lacks a required claim (exp, iss or aud)"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid), errors.Is(err, jwt.ErrTokenUnverifiable),
		errors.Is(err, jwt.ErrSignatureInvalid), errors.Is(err, keyfunc.ErrKeyfunc):
		return "the token's signature does not verify with the server's keys"
	}
	return "the token is not valid"
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// words is a claim of scopes: a space-separated string, as OAuth writes
// scope, or an array of strings, as some issuers write scp.
type words []string

func (w *words) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*w = strings.Fields(s)
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return errors.New("want a string or an array of strings")
	}
	for _, v := range list {
		*w = append(*w, strings.Fields(v)...)
	}
	return nil
}
