package httpserve

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/seed417024ea/mcpcore/internal/config"
)

const (
	testIssuer   = "https://id.example.com"
	testResource = "https://mcp.example.com/mcp"
	testSecret   = "0123456789abcdef0123456789abcdef"
)

// issuer is an OAuth issuer in the test: it signs tokens with its current
// RSA key and serves its public keys as a JWKS, which can rotate.
type issuer struct {
	t    *testing.T
	srv  *httptest.Server
	mu   sync.Mutex
	keys map[string]*rsa.PrivateKey
	kid  string
	hits int
}

func newIssuer(t *testing.T) *issuer {
	is := &issuer{t: t, keys: map[string]*rsa.PrivateKey{}}
	is.rotate("k1")
	is.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		is.mu.Lock()
		defer is.mu.Unlock()
		is.hits++
		var set struct {
			Keys []map[string]string `json:"keys"`
		}
		for kid, k := range is.keys {
			set.Keys = append(set.Keys, map[string]string{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
				"n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
				"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes())})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(is.srv.Close)
	return is
}

// rotate makes kid the signing key, and the only key of the JWKS.
func (is *issuer) rotate(kid string) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		is.t.Fatal(err)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys = map[string]*rsa.PrivateKey{kid: k}
	is.kid = kid
}

func (is *issuer) sign(c jwt.MapClaims) string {
	is.mu.Lock()
	defer is.mu.Unlock()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
	tok.Header["kid"] = is.kid
	s, err := tok.SignedString(is.keys[is.kid])
	if err != nil {
		is.t.Fatal(err)
	}
	return s
}

// goodClaims are good claims for the test issuer and resource, changed by
// with (nil deletes a claim).
func goodClaims(with map[string]any) jwt.MapClaims {
	c := jwt.MapClaims{"iss": testIssuer, "aud": testResource, "sub": "user-1", "client_id": "app-1", "tid": "acme",
		"exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix(), "scope": "articles:read", "scp": []string{"articles:write"}}
	for k, v := range with {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

func hs256(t *testing.T, c jwt.MapClaims) string {
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// echoToken is the endpoint behind auth in these tests: it answers with
// the TokenInfo the middleware put in the request's context.
var echoToken = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(auth.TokenInfoFromContext(r.Context()))
})

func surface(t *testing.T, cfg config.AuthConfig) http.Handler {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	a, err := NewAuth(ctx, cfg, []string{"articles:read", "articles:write"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{MCP: echoToken, Path: "/mcp", Stateless: true, Auth: a, MaxBodyBytes: 1 << 20, BodyTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type exchange struct {
	status    int
	challenge string
	body      string
}

func post(h http.Handler, token string) exchange {
	r := httptest.NewRequest("POST", "http://mcp.example.com/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`))
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return exchange{w.Code, w.Header().Get("WWW-Authenticate"), w.Body.String()}
}

// TestEveryRefusal drives both verifying modes through every way a token
// can be wrong, and checks status, challenge and JSON-RPC body of each.
func TestEveryRefusal(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	oauth := surface(t, config.AuthConfig{Mode: config.AuthOAuth, Issuer: testIssuer, Audience: testResource,
		JWKSURI: is.srv.URL, ResourceIdentifier: testResource, RequiredScopes: []string{"articles:read"}})
	jwtMode := surface(t, config.AuthConfig{Mode: config.AuthJWT, SecretKey: testSecret, Audience: testResource, ResourceIdentifier: testResource})

	otherIssuer := newIssuer(t)
	const metadata = `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"`
	for _, tc := range []struct {
		name      string
		h         http.Handler
		token     string
		status    int
		challenge string // a part of WWW-Authenticate; "" for none at all
		body      string // a part of the body
	}{
		{"oauth: no token", oauth, "", 401, metadata, `"code":-32006,"message":"Unauthorized: no bearer token.`},
		{"oauth: not a JWT", oauth, "hello", 401, metadata, "not a well-formed JWT"},
		{"oauth: valid", oauth, is.sign(goodClaims(nil)), 200, "", `"UserID":"user-1"`},
		{"oauth: expired", oauth, is.sign(goodClaims(map[string]any{"exp": time.Now().Add(-time.Hour).Unix()})), 401, metadata, "the token has expired"},
		{"oauth: no expiry", oauth, is.sign(goodClaims(map[string]any{"exp": nil})), 401, metadata, "lacks a required claim"},
		{"oauth: another audience", oauth, is.sign(goodClaims(map[string]any{"aud": "https://other.example.com/mcp"})), 401, metadata, "issued for another audience"},
		{"oauth: another issuer", oauth, is.sign(goodClaims(map[string]any{"iss": "https://evil.example.com"})), 401, metadata, "an issuer this server does not trust"},
		{"oauth: a key the issuer never published", oauth, otherIssuer.sign(goodClaims(nil)), 401, metadata, "signature does not verify"},
		{"oauth: HS256 with the secret (algorithm confusion)", oauth, hs256(t, goodClaims(nil)), 401, metadata, "signature does not verify"},
		{"oauth: not yet valid", oauth, is.sign(goodClaims(map[string]any{"nbf": time.Now().Add(time.Hour).Unix()})), 401, metadata, "not valid yet"},
		{"oauth: missing the required scope", oauth, is.sign(goodClaims(map[string]any{"scope": "other", "scp": nil})), 403,
			`Bearer error="insufficient_scope", scope="articles:read", ` + metadata, `"code":-32005,"message":"Forbidden: the token lacks the scopes this server requires (articles:read)`},
		{"jwt: valid", jwtMode, hs256(t, goodClaims(nil)), 200, "", `"Scopes":["articles:read","articles:write"]`},
		{"jwt: wrong secret", jwtMode, func() string {
			s, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, goodClaims(nil)).SignedString([]byte(strings.Repeat("x", 32)))
			return s
		}(), 401, metadata, "signature does not verify"},
		{"jwt: RS256 not configured", jwtMode, is.sign(goodClaims(nil)), 401, metadata, "signature does not verify"},
		{"jwt: expired", jwtMode, hs256(t, goodClaims(map[string]any{"exp": time.Now().Add(-time.Minute).Unix()})), 401, metadata, "the token has expired"},
		{"jwt: another audience", jwtMode, hs256(t, goodClaims(map[string]any{"aud": "x"})), 401, metadata, "issued for another audience"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := post(tc.h, tc.token)
			if got.status != tc.status || !strings.Contains(got.body, tc.body) {
				t.Errorf("HTTP %d %s, want %d with %s", got.status, got.body, tc.status, tc.body)
			}
			if tc.challenge == "" && got.challenge != "" || !strings.Contains(got.challenge, tc.challenge) {
				t.Errorf("WWW-Authenticate: %q, want %q", got.challenge, tc.challenge)
			}
			if tc.status != 200 {
				var answer struct {
					ID json.RawMessage `json:"id"`
				}
				if json.Unmarshal([]byte(got.body), &answer) != nil || string(answer.ID) != "7" {
					t.Errorf("body is not a JSON-RPC error under the request's id: %s", got.body)
				}
				if tc.token != "" && len(tc.token) > 20 && strings.Contains(got.body, tc.token[len(tc.token)-20:]) {
					t.Errorf("the refusal echoes the token: %s", got.body)
				}
			}
		})
	}
}

// TestTokenInfo checks what a valid token tells the handlers: the union of
// the three scope claims, the subject, client and tenant.
func TestTokenInfo(t *testing.T) {
	t.Parallel()
	h := surface(t, config.AuthConfig{Mode: config.AuthJWT, SecretKey: testSecret})
	got := post(h, hs256(t, goodClaims(map[string]any{"scope": "a b", "scp": []string{"c", "a"}, "mcp_tool_scopes": "d", "client_id": nil, "azp": "app-2", "tid": nil, "tenant_id": "t-9"})))
	var ti auth.TokenInfo
	if err := json.Unmarshal([]byte(got.body), &ti); err != nil || got.status != 200 {
		t.Fatalf("HTTP %d %s", got.status, got.body)
	}
	if !slices.Equal(ti.Scopes, []string{"a", "b", "c", "d"}) || ti.UserID != "user-1" ||
		ti.Extra[ExtraClientID] != "app-2" || ti.Extra[ExtraTenantID] != "t-9" || ti.Extra[ExtraIssuer] != testIssuer || ti.Expiration.IsZero() {
		t.Errorf("TokenInfo = %+v", ti)
	}
}

// TestRotatedKey checks that a token signed with a key the issuer added
// after the server fetched its JWKS is accepted: the server fetches again.
func TestRotatedKey(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	h := surface(t, config.AuthConfig{Mode: config.AuthOAuth, Issuer: testIssuer, Audience: testResource, JWKSURI: is.srv.URL})
	if got := post(h, is.sign(goodClaims(nil))); got.status != 200 {
		t.Fatalf("before rotation: HTTP %d %s", got.status, got.body)
	}
	old := is.sign(goodClaims(nil))
	is.rotate("k2")
	if got := post(h, is.sign(goodClaims(nil))); got.status != 200 {
		t.Fatalf("after rotation: HTTP %d %s", got.status, got.body)
	}
	// The old key left the JWKS: its tokens no longer pass, once the
	// server has seen the new set.
	if got := post(h, old); got.status != 401 {
		t.Errorf("a token of the retired key: HTTP %d %s", got.status, got.body)
	}
}

// TestProtectedResourceMetadata reads the metadata as a client discovers
// it: from the URL in WWW-Authenticate, and at the path RFC 9728 derives.
func TestProtectedResourceMetadata(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	for _, tc := range []struct {
		name     string
		cfg      config.AuthConfig
		resource string
		servers  []string
	}{
		{"oauth, configured resource", config.AuthConfig{Mode: config.AuthOAuth, Issuer: testIssuer, Audience: testResource, JWKSURI: is.srv.URL, ResourceIdentifier: testResource},
			testResource, []string{testIssuer}},
		{"jwt, resource from the request", config.AuthConfig{Mode: config.AuthJWT, SecretKey: testSecret}, "http://mcp.example.com/mcp", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := surface(t, tc.cfg)
			for _, path := range []string{MetadataPath, MetadataPath + "/mcp"} {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", "http://mcp.example.com"+path, nil))
				var m struct {
					Resource             string   `json:"resource"`
					AuthorizationServers []string `json:"authorization_servers"`
					ScopesSupported      []string `json:"scopes_supported"`
					BearerMethods        []string `json:"bearer_methods_supported"`
				}
				body, _ := io.ReadAll(w.Body)
				if err := json.Unmarshal(body, &m); err != nil || w.Code != 200 {
					t.Fatalf("GET %s: HTTP %d %s", path, w.Code, body)
				}
				if m.Resource != tc.resource || !slices.Equal(m.AuthorizationServers, tc.servers) ||
					!slices.Equal(m.ScopesSupported, []string{"articles:read", "articles:write"}) || !slices.Equal(m.BearerMethods, []string{"header"}) {
					t.Errorf("GET %s: %s", path, body)
				}
			}
		})
	}
}

// TestProbesStayOpen checks that the probes answer without a token.
func TestProbesStayOpen(t *testing.T) {
	t.Parallel()
	h := surface(t, config.AuthConfig{Mode: config.AuthJWT, SecretKey: testSecret})
	for _, path := range []string{LivenessPath, ReadinessPath} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 {
			t.Errorf("GET %s without a token: HTTP %d", path, w.Code)
		}
	}
}

// TestSkewAndSubject checks the 30 s of clock skew on exp, and that a
// token's session is bound to someone: its subject, else its client.
func TestSkewAndSubject(t *testing.T) {
	t.Parallel()
	h := surface(t, config.AuthConfig{Mode: config.AuthJWT, SecretKey: testSecret})
	if got := post(h, hs256(t, goodClaims(map[string]any{"exp": time.Now().Add(-10 * time.Second).Unix()}))); got.status != 200 {
		t.Errorf("expired 10 s ago: HTTP %d %s", got.status, got.body)
	}
	got := post(h, hs256(t, goodClaims(map[string]any{"sub": nil})))
	var ti auth.TokenInfo
	if json.Unmarshal([]byte(got.body), &ti) != nil || ti.UserID != "client:app-1" {
		t.Errorf("no sub: HTTP %d %s", got.status, got.body)
	}
	if got := post(h, hs256(t, goodClaims(map[string]any{"sub": nil, "client_id": nil}))); got.status != 401 || !strings.Contains(got.body, "names no subject") {
		t.Errorf("no sub, no client: HTTP %d %s", got.status, got.body)
	}
}
