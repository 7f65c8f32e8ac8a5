package mcphttp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
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
	"github.com/seed417024ea/mcpcore/internal/httpserve"
)

const (
	testIssuer   = "https://id.example.com"
	testResource = "https://mcp.example.com/mcp"
	testSecret   = "0123456789abcdef0123456789abcdef"
)

// issuer is an OAuth issuer in the test: it signs tokens with its current
// RSA key and serves its public keys as a JWKS, which can rotate. It can
// also be slow, down, hung or oversized (see jwks_test.go).
type issuer struct {
	t    *testing.T
	srv  *httptest.Server
	mu   sync.Mutex
	keys map[string]*rsa.PrivateKey
	kid  string
	hits int

	delay    time.Duration // before each answer
	status   int           // answered instead of the JWKS when not 0
	gate     chan struct{} // when not nil, each answer waits for it to close
	pad      int           // bytes of padding streamed inside the JWKS
	inFlight int           // answers not yet written
	wrote    int64         // bytes of the last answer written
}

func newIssuer(t *testing.T) *issuer {
	is := &issuer{t: t, keys: map[string]*rsa.PrivateKey{}}
	is.rotate("k1")
	is.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		is.mu.Lock()
		is.hits++
		is.inFlight++
		delay, status, gate, pad := is.delay, is.status, is.gate, is.pad
		var set struct {
			Keys []map[string]string `json:"keys"`
		}
		for kid, k := range is.keys {
			set.Keys = append(set.Keys, map[string]string{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
				"n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
				"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes())})
		}
		is.mu.Unlock()
		defer func() {
			is.mu.Lock()
			is.inFlight--
			is.mu.Unlock()
		}()
		if gate != nil {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		time.Sleep(delay)
		if status != 0 {
			http.Error(w, "unavailable", status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if pad == 0 {
			json.NewEncoder(w).Encode(set)
			return
		}
		// A JWKS padded with a long string member, streamed without a
		// Content-Length: the reader must stop on its own.
		b, _ := json.Marshal(set)
		n, _ := w.Write(append(b[:len(b)-1], `,"pad":"`...))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for written := 0; written < pad; written += len(chunk) {
			m, err := w.Write(chunk)
			n += m
			if err != nil {
				break
			}
		}
		w.Write([]byte(`"}`))
		is.mu.Lock()
		is.wrote = int64(n)
		is.mu.Unlock()
	}))
	t.Cleanup(is.srv.Close)
	return is
}

// set changes the issuer under its lock.
func (is *issuer) set(f func(is *issuer)) {
	is.mu.Lock()
	defer is.mu.Unlock()
	f(is)
}

// issuerRead reads the issuer under its lock.
func issuerRead[T any](is *issuer, f func(is *issuer) T) T {
	is.mu.Lock()
	defer is.mu.Unlock()
	return f(is)
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

func surface(t *testing.T, cfg AuthConfig) http.Handler {
	t.Helper()
	h, _ := surfaceWith(t, cfg, jwksOptions{}, nil)
	return h
}

// surfaceWith is surface with the bounds of the JWKS fetches and a
// logger; it also returns the Auth, whose keys the tests can inspect.
func surfaceWith(t *testing.T, cfg AuthConfig, opts jwksOptions, logger *slog.Logger) (http.Handler, *Auth) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	a, err := newAuth(ctx, cfg, logger, opts)
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpserve.New(httpserve.Options{MCP: echoToken, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 20, BodyTimeout: time.Second,
		Logger: logger, Authenticate: protectWith(a), Routes: a.Routes("/mcp", []string{"articles:read", "articles:write"})})
	if err != nil {
		t.Fatal(err)
	}
	return h, a
}

type exchange struct {
	status    int
	challenge string
	body      string
}

func post(h http.Handler, token string) exchange {
	return postCtx(context.Background(), h, token)
}

// postCtx is post on ctx, which can end as a client hangs up.
func postCtx(ctx context.Context, h http.Handler, token string) exchange {
	r := httptest.NewRequestWithContext(ctx, "POST", "http://mcp.example.com/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`))
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
	oauth := surface(t, AuthConfig{Mode: AuthOAuth, Issuer: testIssuer, Audience: testResource,
		JWKSURI: is.srv.URL, ResourceIdentifier: testResource, RequiredScopes: []string{"articles:read"}})
	jwtMode := surface(t, AuthConfig{Mode: AuthJWT, SecretKey: testSecret, Audience: testResource, ResourceIdentifier: testResource})

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
		{"oauth: no expiry", oauth, is.sign(goodClaims(map[string]any{"exp": nil})), 401, metadata, "the token lacks the required claim exp."},
		{"oauth: no issuer", oauth, is.sign(goodClaims(map[string]any{"iss": nil})), 401, metadata, "the token lacks the required claim iss."},
		{"oauth: no audience", oauth, is.sign(goodClaims(map[string]any{"aud": nil})), 401, metadata, "the token lacks the required claim aud."},
		{"oauth: an empty audience", oauth, is.sign(goodClaims(map[string]any{"aud": ""})), 401, metadata, "the token lacks the required claim aud."},
		{"oauth: no expiry, issuer or audience", oauth, is.sign(goodClaims(map[string]any{"exp": nil, "iss": nil, "aud": nil})), 401, metadata,
			"the token lacks the required claims exp, iss, aud."},
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
		// In jwt mode the audience is MCP_SERVER_RESOURCE_IDENTIFIER (or
		// OAUTH_AUDIENCE), and no issuer is required unless configured.
		{"jwt: no audience", jwtMode, hs256(t, goodClaims(map[string]any{"aud": nil})), 401, metadata, "the token lacks the required claim aud."},
		{"jwt: no issuer needed", jwtMode, hs256(t, goodClaims(map[string]any{"iss": nil})), 200, "", `"UserID":"user-1"`},
		{"jwt: no expiry, no issuer", jwtMode, hs256(t, goodClaims(map[string]any{"exp": nil, "iss": nil})), 401, metadata, "the token lacks the required claim exp."},
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
	h := surface(t, AuthConfig{Mode: AuthJWT, SecretKey: testSecret})
	got := post(h, hs256(t, goodClaims(map[string]any{"scope": "a b", "scp": []string{"c", "a"}, "mcp_tool_scopes": "d", "client_id": nil, "azp": "app-2", "tid": nil, "tenant_id": "t-9"})))
	var ti auth.TokenInfo
	if err := json.Unmarshal([]byte(got.body), &ti); err != nil || got.status != 200 {
		t.Fatalf("HTTP %d %s", got.status, got.body)
	}
	if !slices.Equal(ti.Scopes, []string{"a", "b", "c", "d"}) || ti.UserID != "user-1" ||
		ti.Extra[httpserve.ExtraClientID] != "app-2" || ti.Extra[httpserve.ExtraTenantID] != "t-9" || ti.Extra[httpserve.ExtraIssuer] != testIssuer || ti.Expiration.IsZero() {
		t.Errorf("TokenInfo = %+v", ti)
	}
}

// TestRotatedKey checks that a token signed with a key the issuer added
// after the server fetched its JWKS is accepted: the server fetches again.
func TestRotatedKey(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	h := surface(t, AuthConfig{Mode: AuthOAuth, Issuer: testIssuer, Audience: testResource, JWKSURI: is.srv.URL})
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
		cfg      AuthConfig
		resource string
		servers  []string
	}{
		{"oauth, configured resource", AuthConfig{Mode: AuthOAuth, Issuer: testIssuer, Audience: testResource, JWKSURI: is.srv.URL, ResourceIdentifier: testResource},
			testResource, []string{testIssuer}},
		{"jwt, resource from the request", AuthConfig{Mode: AuthJWT, SecretKey: testSecret}, "http://mcp.example.com/mcp", nil},
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
	h := surface(t, AuthConfig{Mode: AuthJWT, SecretKey: testSecret})
	for _, path := range []string{httpserve.LivenessPath, httpserve.ReadinessPath} {
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
	h := surface(t, AuthConfig{Mode: AuthJWT, SecretKey: testSecret})
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

// hs256Raw signs claims given as JSON text, with extra header parameters:
// the shapes a MapClaims cannot make (a date as a string, claim names
// that differ only in case).
func hs256Raw(t *testing.T, header map[string]any, claimsJSON string) string {
	t.Helper()
	h := map[string]any{"alg": "HS256", "typ": "JWT"}
	for k, v := range header {
		h[k] = v
	}
	hb, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(hb) + "." + enc.EncodeToString([]byte(claimsJSON))
	sig, err := jwt.SigningMethodHS256.Sign(signing, []byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	return signing + "." + enc.EncodeToString(sig)
}

// TestStrictTokens checks the leniencies issue 18 found closed: a
// NumericDate given as a string, and a crit header, are refused with 401
// and a JSON-RPC error, in both verifying modes.
func TestStrictTokens(t *testing.T) {
	t.Parallel()
	h := surface(t, AuthConfig{Mode: AuthJWT, SecretKey: testSecret})
	is := newIssuer(t)
	oauth := surface(t, AuthConfig{Mode: AuthOAuth, Issuer: testIssuer, Audience: testResource, JWKSURI: is.srv.URL})
	exp := time.Now().Add(time.Hour).Unix()
	now := time.Now().Unix()
	rs256 := func(header map[string]any, c jwt.MapClaims) string {
		is.mu.Lock()
		defer is.mu.Unlock()
		tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
		tok.Header["kid"] = is.kid
		for k, v := range header {
			tok.Header[k] = v
		}
		s, err := tok.SignedString(is.keys[is.kid])
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const notNumber, critical = "exp, nbf or iat is not a number", "critical extensions (crit)"
	for _, tc := range []struct {
		name  string
		h     http.Handler
		token string
		want  string // a part of the refusal; "" for a token that passes
	}{
		{"control: numeric exp", h, hs256Raw(t, nil, fmt.Sprintf(`{"sub":"u","exp":%d,"iat":%d,"nbf":%d}`, exp, now, now)), ""},
		{"exp as a string", h, hs256Raw(t, nil, `{"sub":"u","exp":"9999999999"}`), notNumber},
		{"exp as a string, far future, with a numeric iat", h, hs256Raw(t, nil, fmt.Sprintf(`{"sub":"u","exp":"%d","iat":%d}`, exp, now)), notNumber},
		{"nbf as a string", h, hs256Raw(t, nil, fmt.Sprintf(`{"sub":"u","exp":%d,"nbf":"0"}`, exp)), notNumber},
		{"iat as a string", h, hs256Raw(t, nil, fmt.Sprintf(`{"sub":"u","exp":%d,"iat":"%d"}`, exp, now)), notNumber},
		{"exp as null", h, hs256Raw(t, nil, `{"sub":"u","exp":null}`), notNumber},
		{"exp as an object", h, hs256Raw(t, nil, `{"sub":"u","exp":{"n":9999999999}}`), notNumber},
		{"exp as true", h, hs256Raw(t, nil, `{"sub":"u","exp":true}`), notNumber},
		// The date the validator reads is exp itself, not a claim that
		// matches it but for case.
		{"EXP as a string beside no exp", h, hs256Raw(t, nil, `{"sub":"u","EXP":9999999999}`), "lacks the required claim exp"},
		{"crit naming an extension", h, hs256Raw(t, map[string]any{"crit": []string{"urn:example:ext"}, "urn:example:ext": true},
			fmt.Sprintf(`{"sub":"u","exp":%d}`, exp)), critical},
		{"crit naming b64 (RFC 7797)", h, hs256Raw(t, map[string]any{"crit": []string{"b64"}, "b64": true}, fmt.Sprintf(`{"sub":"u","exp":%d}`, exp)), critical},
		{"crit naming a registered parameter", h, hs256Raw(t, map[string]any{"crit": []string{"exp"}}, fmt.Sprintf(`{"sub":"u","exp":%d}`, exp)), critical},
		{"crit empty", h, hs256Raw(t, map[string]any{"crit": []string{}}, fmt.Sprintf(`{"sub":"u","exp":%d}`, exp)), critical},
		{"crit not an array", h, hs256Raw(t, map[string]any{"crit": "ext"}, fmt.Sprintf(`{"sub":"u","exp":%d}`, exp)), critical},
		{"crit null", h, hs256Raw(t, map[string]any{"crit": nil}, fmt.Sprintf(`{"sub":"u","exp":%d}`, exp)), critical},
		{"oauth: control", oauth, rs256(nil, goodClaims(nil)), ""},
		{"oauth: exp as a string", oauth, rs256(nil, goodClaims(map[string]any{"exp": "9999999999"})), notNumber},
		{"oauth: crit", oauth, rs256(map[string]any{"crit": []string{"urn:example:ext"}, "urn:example:ext": 1}, goodClaims(nil)), critical},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := post(tc.h, tc.token)
			if tc.want == "" {
				if got.status != 200 {
					t.Errorf("HTTP %d %s, want 200", got.status, got.body)
				}
				return
			}
			var answer struct {
				ID    json.RawMessage `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if got.status != 401 || json.Unmarshal([]byte(got.body), &answer) != nil || string(answer.ID) != "7" ||
				answer.Error.Code != -32006 || !strings.Contains(answer.Error.Message, tc.want) {
				t.Errorf("HTTP %d %s, want 401 with a -32006 error saying %q", got.status, got.body, tc.want)
			}
		})
	}
}

// TestUserIDsAreDistinct checks that tokens naming different callers get
// different UserIDs, to which the SDK binds sessions: a sub cannot pass
// for a client, nor one sub for another. Extra["sub"] keeps the claim.
func TestUserIDsAreDistinct(t *testing.T) {
	t.Parallel()
	h := surface(t, AuthConfig{Mode: AuthJWT, SecretKey: testSecret})
	for _, tc := range []struct {
		name     string
		claims   map[string]any
		user     string
		subClaim string
	}{
		{"a plain sub", map[string]any{"sub": "svc", "client_id": nil}, "svc", "svc"},
		{"a client alone", map[string]any{"sub": nil, "client_id": "svc"}, "client:svc", ""},
		{"a client alone, by azp", map[string]any{"sub": nil, "client_id": nil, "azp": "svc"}, "client:svc", ""},
		{"a sub that looks like a client", map[string]any{"sub": "client:svc", "client_id": nil}, "sub:client:svc", "client:svc"},
		{"a sub that looks like an escaped sub", map[string]any{"sub": "sub:client:svc", "client_id": nil}, "sub:sub:client:svc", "sub:client:svc"},
		{"a sub that looks like a client, with a client", map[string]any{"sub": "client:svc", "client_id": "svc"}, "sub:client:svc", "client:svc"},
		{"a sub with a client: the sub wins", map[string]any{"sub": "svc", "client_id": "other"}, "svc", "svc"},
		{"a client whose id looks like a sub", map[string]any{"sub": nil, "client_id": "sub:x"}, "client:sub:x", ""},
		{"a sub of sub:x", map[string]any{"sub": "sub:x", "client_id": nil}, "sub:sub:x", "sub:x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := post(h, hs256(t, goodClaims(tc.claims)))
			var ti auth.TokenInfo
			if err := json.Unmarshal([]byte(got.body), &ti); err != nil || got.status != 200 {
				t.Fatalf("HTTP %d %s", got.status, got.body)
			}
			if ti.UserID != tc.user || ti.Extra[httpserve.ExtraSubject] != tc.subClaim {
				t.Errorf("UserID %q, Extra[sub] %q; want %q, %q", ti.UserID, ti.Extra[httpserve.ExtraSubject], tc.user, tc.subClaim)
			}
		})
	}
	// However they are written, no two of these callers share a name.
	seen := map[string]string{}
	for _, c := range []map[string]any{
		{"sub": "svc"}, {"sub": "client:svc"}, {"sub": nil, "client_id": "svc"}, {"sub": "sub:client:svc"},
		{"sub": nil, "client_id": "client:svc"}, {"sub": "sub:svc"}, {"sub": nil, "client_id": "sub:svc"}, {"sub": "client:client:svc"},
	} {
		got := post(h, hs256(t, goodClaims(c)))
		var ti auth.TokenInfo
		if err := json.Unmarshal([]byte(got.body), &ti); err != nil || got.status != 200 {
			t.Fatalf("%v: HTTP %d %s", c, got.status, got.body)
		}
		who := fmt.Sprint(c)
		if other, dup := seen[ti.UserID]; dup {
			t.Errorf("%s and %s share the UserID %q", other, who, ti.UserID)
		}
		seen[ti.UserID] = who
	}
}

// TestClaimNamesAreExact checks that only the exact claim names count: a
// "Sub" is not the subject (encoding/json would have taken it).
func TestClaimNamesAreExact(t *testing.T) {
	t.Parallel()
	h := surface(t, AuthConfig{Mode: AuthJWT, SecretKey: testSecret})
	exp := time.Now().Add(time.Hour).Unix()
	got := post(h, hs256Raw(t, nil, fmt.Sprintf(`{"Sub":"admin","client_id":"app","exp":%d}`, exp)))
	var ti auth.TokenInfo
	if err := json.Unmarshal([]byte(got.body), &ti); err != nil || got.status != 200 || ti.UserID != "client:app" {
		t.Errorf("HTTP %d %s, want the client's UserID", got.status, got.body)
	}
}

// protectWith is a's Protect in the endpoint's slot.
func protectWith(a *Auth) func(http.Handler, *httpserve.Refusals) http.Handler {
	return func(next http.Handler, log *httpserve.Refusals) http.Handler { return a.Protect(next, log) }
}
