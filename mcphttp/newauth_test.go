package mcphttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcphttp"
)

const secret = "0123456789abcdef0123456789abcdef"

type none struct{}

var ping = mcpcore.Tool[none, none]{Name: "ping", Description: "Answer.",
	Handler: func(*mcpcore.Context, none) (none, error) { return none{}, nil }}

// TestNewAuthRefusesBadConfig: a configuration NewAuth cannot serve is a
// ConfigurationError naming the variable, as the environment's would be.
func TestNewAuthRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  mcphttp.AuthConfig
		want string
	}{
		{mcphttp.AuthConfig{Mode: "basic"}, "MCP_AUTH_MODE"},
		{mcphttp.AuthConfig{Mode: mcphttp.AuthJWT}, "MCP_AUTH_SECRET_KEY"},
		{mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: "short"}, "MCP_AUTH_SECRET_KEY has 5 characters"},
		{mcphttp.AuthConfig{Mode: mcphttp.AuthOAuth}, "OAUTH_ISSUER_URL"},
	} {
		a, err := mcphttp.NewAuth(t.Context(), tc.cfg, nil)
		if a != nil || mcperr.CodeOf(err) != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewAuth(%+v) = %v, %v; want a ConfigurationError naming %s", tc.cfg, a, err, tc.want)
		}
	}
	// Mode none authenticates no one: no HTTPAuth, not a typed nil that
	// would let the server listen beyond loopback.
	if a, err := mcphttp.NewAuth(t.Context(), mcphttp.AuthConfig{}, nil); a != nil || err != nil {
		t.Errorf("NewAuth(mode none) = %v, %v; want nil, nil", a, err)
	}
}

// TestTheCardNamesTheScheme: the server card says which authentication
// the endpoint requires, by mode.
func TestTheCardNamesTheScheme(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  mcphttp.AuthConfig
		want string
	}{
		{mcphttp.AuthConfig{}, `{"required":false}`},
		{mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: secret}, `{"required":true,"schemes":["bearer"]}`},
		{mcphttp.AuthConfig{Mode: mcphttp.AuthOAuth, Issuer: "https://id.example.com", Audience: "https://mcp.example.com/mcp",
			JWKSURI: "http://127.0.0.1:1/jwks"}, `{"required":true,"schemes":["oauth2"]}`},
	} {
		ctx, cancel := context.WithCancel(t.Context())
		a, err := mcphttp.NewAuth(ctx, tc.cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := mcpcore.NewServer(mcpcore.Info{Name: "card"}, &mcpcore.ServerOptions{HTTPAuth: a}, ping)
		if err != nil {
			t.Fatal(err)
		}
		w := httptest.NewRecorder()
		srv.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, mcpcore.CardPath, nil))
		var card struct{ Authentication json.RawMessage }
		var got bytes.Buffer
		if err := json.Unmarshal(w.Body.Bytes(), &card); err != nil || json.Compact(&got, card.Authentication) != nil || got.String() != tc.want {
			t.Errorf("mode %q: the card's authentication is %s (%v), want %s", tc.cfg.Mode, card.Authentication, err, tc.want)
		}
		cancel()
	}
}
