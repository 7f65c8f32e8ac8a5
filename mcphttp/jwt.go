package mcphttp

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

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
)

// A verifier is a token verifier of the SDK's auth middleware that logs
// the tokens it refuses to log.
type verifier func(ctx context.Context, token string, r *http.Request, log mcpcore.RefusalLog) (*auth.TokenInfo, error)

// leeway is the clock skew tolerated on exp, nbf and iat.
const leeway = 30 * time.Second

// jwtVerifier verifies tokens signed with the configured HS256 secret or
// RS256 public key (MCP_AUTH_MODE=jwt). Only the configured algorithms are
// accepted, so that a token cannot choose how it is checked.
func jwtVerifier(cfg AuthConfig) (verifier, error) {
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
	need := required{issuer: cfg.Issuer != "", audience: cfg.Audience != ""}
	return func(_ context.Context, token string, r *http.Request, log mcpcore.RefusalLog) (*auth.TokenInfo, error) {
		return verifyToken(parser, need, token, key, r, log)
	}, nil
}

// oauthVerifier verifies the tokens of an OAuth issuer (MCP_AUTH_MODE=
// oauth) with the keys of its JWKS, which a jwksCache fetches in the
// background: NewAuth does not wait for the issuer, and until its keys
// arrive tokens are refused with a reason that says so. Issuer, audience
// (the server's own resource) and expiry are required. opts bounds the
// fetches; its zero value takes the defaults of jwks.go.
func oauthVerifier(ctx context.Context, cfg AuthConfig, opts jwksOptions, logger *slog.Logger) (verifier, *jwksCache, error) {
	if cfg.JWKSURI == "" {
		return nil, nil, errors.New("OAUTH_JWKS_URI: no URL")
	}
	keys := newJWKSCache(ctx, cfg.JWKSURI, opts, logger)
	parser := jwt.NewParser(
		// Asymmetric algorithms only: a JWKS holds public keys.
		jwt.WithValidMethods([]string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}),
		jwt.WithIssuer(cfg.Issuer), jwt.WithAudience(cfg.Audience),
		jwt.WithExpirationRequired(), jwt.WithLeeway(leeway))
	return func(ctx context.Context, token string, r *http.Request, log mcpcore.RefusalLog) (*auth.TokenInfo, error) {
		return verifyToken(parser, required{issuer: true, audience: true}, token, keys.keyfunc(ctx), r, log)
	}, keys, nil
}

// claims are the claims read from a token: the registered ones, the
// scopes of the three claims that carry them, and the caller's identity.
// They are decoded by UnmarshalJSON, more strictly than encoding/json
// would.
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

// errNotNumericDate refuses an exp, nbf or iat that is not a JSON number.
var errNotNumericDate = errors.New("exp, nbf and iat must be JSON numbers")

// UnmarshalJSON decodes the claims by their exact names (encoding/json
// would also fill Subject from "SUB" or "Sub"), and refuses an exp, nbf or
// iat that is not a JSON number: RFC 7519 defines a NumericDate as one,
// while jwt.NumericDate also takes a string such as "9999999999".
func (c *claims) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for name, date := range map[string]**jwt.NumericDate{"exp": &c.ExpiresAt, "nbf": &c.NotBefore, "iat": &c.IssuedAt} {
		v, ok := raw[name]
		if !ok {
			continue
		}
		if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
			return fmt.Errorf("%w (%s is not)", errNotNumericDate, name)
		}
		*date = new(jwt.NumericDate)
		if err := (*date).UnmarshalJSON(v); err != nil {
			return fmt.Errorf("%w (%s: %v)", errNotNumericDate, name, err)
		}
	}
	for name, field := range map[string]any{
		"iss": &c.Issuer, "sub": &c.Subject, "aud": &c.Audience, "jti": &c.ID,
		"scp": &c.Scp, "scope": &c.Scope, "mcp_tool_scopes": &c.ToolScopes,
		"client_id": &c.ClientID, "azp": &c.AZP, "cid": &c.CID, "tid": &c.TID, "tenant_id": &c.TenantID,
	} {
		if v, ok := raw[name]; ok {
			if err := json.Unmarshal(v, field); err != nil {
				return fmt.Errorf("claim %s: %w", name, err)
			}
		}
	}
	return nil
}

// errCritical refuses a token whose header has a crit parameter.
var errCritical = errors.New("the token's header lists critical extensions (crit) this server does not understand")

// verifyToken parses and checks token, and returns what it says of its
// bearer. A refusal is an auth.ErrInvalidToken with a message of our own
// that names no part of the token (the SDK sends it to the client), and is
// logged without the token.
//
// A token whose header has crit is refused, whatever it lists and however
// it is written: RFC 7515 (4.1.11) requires refusing a token that marks
// as critical an extension the recipient does not understand, and this
// server understands none. The check comes before any key is looked up,
// so such a token never causes a fetch of the issuer's keys.
func verifyToken(p *jwt.Parser, need required, token string, key jwt.Keyfunc, r *http.Request, log mcpcore.RefusalLog) (*auth.TokenInfo, error) {
	var c claims
	checked := func(t *jwt.Token) (any, error) {
		if _, ok := t.Header["crit"]; ok {
			return nil, errCritical
		}
		return key(t)
	}
	if _, err := p.ParseWithClaims(token, &c, checked); err != nil {
		why := refusalOf(err, need.missing(&c))
		log.Refused(r, "invalid_token", "invalid bearer token", "why", why)
		return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, why)
	}
	clientID := firstOf(c.ClientID, c.AZP, c.CID)
	user := userID(c.Subject, clientID)
	if user == "" {
		log.Refused(r, "invalid_token", "invalid bearer token", "why", "no subject")
		return nil, fmt.Errorf("%w: the token names no subject (sub) and no client (client_id)", auth.ErrInvalidToken)
	}
	info := &auth.TokenInfo{
		UserID: user,
		Scopes: slices.Compact(slices.Sorted(slices.Values(slices.Concat(c.Scp, c.Scope, c.ToolScopes)))),
		Extra: map[string]any{
			httpserve.ExtraSubject:  c.Subject,
			httpserve.ExtraClientID: clientID,
			httpserve.ExtraTenantID: firstOf(c.TID, c.TenantID),
			httpserve.ExtraIssuer:   c.Issuer,
		},
	}
	if c.ExpiresAt != nil {
		info.Expiration = c.ExpiresAt.Time
	}
	return info, nil
}

// The prefixes of a UserID that is not a plain sub.
const (
	clientPrefix  = "client:"
	escapedPrefix = "sub:"
)

// userID is the name the SDK binds a token's session to
// (auth.TokenInfo.UserID): the token's sub as it is; "client:" + the
// client id for a token without sub (a client acting for itself); and, so
// that no sub can pass for a client or for another sub, "sub:" + sub when
// sub itself begins with "client:" or "sub:". A sub of "client:svc" is
// thus "sub:client:svc", not the "client:svc" of a token with only
// client_id svc. The three forms cannot meet, so the mapping is
// injective. "" means the token names no one.
//
// The issuer is not part of the name: each mode trusts one issuer (oauth:
// OAUTH_ISSUER_URL, required; jwt: the holders of the configured keys,
// and OAUTH_ISSUER_URL when set), so a sub is only ever one issuer's. A
// server that trusted several issuers would have to add it.
func userID(sub, clientID string) string {
	switch {
	case sub == "" && clientID == "":
		return ""
	case sub == "":
		return clientPrefix + clientID
	case strings.HasPrefix(sub, clientPrefix), strings.HasPrefix(sub, escapedPrefix):
		return escapedPrefix + sub
	}
	return sub
}

// required says which claims beside exp (always required) a parser
// requires: iss when an issuer is configured, aud when an audience is.
type required struct{ issuer, audience bool }

// missing names the required claims c lacks, in the order exp, iss, aud.
// It reads the claims as decoded, not the validator's error text, which
// is the library's and not a contract.
func (need required) missing(c *claims) []string {
	var names []string
	if c.ExpiresAt == nil {
		names = append(names, "exp")
	}
	if need.issuer && c.Issuer == "" {
		names = append(names, "iss")
	}
	// An aud of "" counts as none, as the validator counts it.
	if need.audience && (len(c.Audience) == 0 || len(c.Audience) == 1 && c.Audience[0] == "") {
		names = append(names, "aud")
	}
	return names
}

// refusalOf says why a token was refused, in words of our own. missing
// names the required claims the token lacks; only claim names go in the
// message, never a value of the token or of the configuration (the
// message goes to the client, in the body of the 401).
func refusalOf(err error, missing []string) string {
	switch {
	case errchain.Is(err, errNotNumericDate):
		return "the token's exp, nbf or iat is not a number (RFC 7519 NumericDate)"
	case errchain.Is(err, errCritical):
		return errCritical.Error()
	case errchain.Is(err, errNoKeysYet):
		return errNoKeysYet.Error() + "; try again shortly"
	case errchain.Is(err, errUnknownKey), errchain.Is(err, errBadKeyID), errchain.Is(err, errKeyMisuse):
		return "the token's signature does not verify with the server's keys"
	case errchain.Is(err, jwt.ErrTokenMalformed):
		return "the token is not a well-formed JWT"
	case errchain.Is(err, jwt.ErrTokenExpired):
		return "the token has expired"
	case errchain.Is(err, jwt.ErrTokenNotValidYet), errchain.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return "the token is not valid yet"
	case errchain.Is(err, jwt.ErrTokenInvalidAudience):
		return "the token was issued for another audience"
	case errchain.Is(err, jwt.ErrTokenInvalidIssuer):
		return "the token was issued by an issuer this server does not trust"
	case errchain.Is(err, jwt.ErrTokenRequiredClaimMissing):
		switch len(missing) {
		case 0: // the validator saw a lack we did not; say no more than it did
			return "the token lacks a required claim (exp, iss or aud)"
		case 1:
			return "the token lacks the required claim " + missing[0]
		}
		return "the token lacks the required claims " + strings.Join(missing, ", ")
	case errchain.Is(err, jwt.ErrTokenSignatureInvalid), errchain.Is(err, jwt.ErrTokenUnverifiable),
		errchain.Is(err, jwt.ErrSignatureInvalid):
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
