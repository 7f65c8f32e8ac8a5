package mcphttp

import (
	"reflect"
	"strings"
	"testing"
)

// TestAuthConfigCheck: each combination an authentication could not serve
// is reported, naming its variables and never the key; the others pass.
func TestAuthConfigCheck(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("s", 32)
	for _, tc := range []struct {
		name string
		cfg  AuthConfig
		want string // the whole error; "" when the configuration is good
	}{
		{"none", AuthConfig{}, ""},
		{"jwt", AuthConfig{Mode: AuthJWT, SecretKey: key}, ""},
		{"jwt, RS256", AuthConfig{Mode: AuthJWT, PublicKey: "pem"}, ""},
		{"oauth", AuthConfig{Mode: AuthOAuth, Issuer: "https://id.example.com/", ResourceIdentifier: "https://mcp.example.com/mcp"}, ""},
		{"unknown mode", AuthConfig{Mode: "basic"}, `MCP_AUTH_MODE="basic": want none, jwt or oauth`},
		{"jwt without a key", AuthConfig{Mode: AuthJWT},
			"MCP_AUTH_MODE=jwt needs MCP_AUTH_SECRET_KEY (HS256, at least 32 characters) or MCP_AUTH_PUBLIC_KEY (RS256, PEM)"},
		{"jwt with a short key", AuthConfig{Mode: AuthJWT, SecretKey: "hunter2hunter2"}, "MCP_AUTH_SECRET_KEY has 14 characters; it needs at least 32"},
		{"oauth without issuer", AuthConfig{Mode: AuthOAuth, Audience: "x"},
			"MCP_AUTH_MODE=oauth needs OAUTH_ISSUER_URL, the issuer whose tokens the server accepts"},
		{"oauth without audience", AuthConfig{Mode: AuthOAuth, Issuer: "https://id.example.com"},
			"MCP_AUTH_MODE=oauth needs OAUTH_AUDIENCE or MCP_SERVER_RESOURCE_IDENTIFIER: tokens minted for another audience must be refused"},
		{"URLs that are not", AuthConfig{Mode: AuthOAuth, Issuer: "id.example.com", Audience: "x", JWKSURI: "keys", ResourceIdentifier: "/mcp"},
			"OAUTH_ISSUER_URL=\"id.example.com\": want an absolute http(s) URL\n" +
				"OAUTH_JWKS_URI=\"keys\": want an absolute http(s) URL\n" +
				"MCP_SERVER_RESOURCE_IDENTIFIER=\"/mcp\": want an absolute http(s) URL"},
	} {
		err := tc.cfg.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Check() = %v", tc.name, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%s: Check() = %v\nwant %s", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
}

// TestAuthConfigDefaults: the zero mode is none, the audience is the
// resource identifier, and an OAuth issuer's keys are at its well-known
// JWKS, as the configuration table says.
func TestAuthConfigDefaults(t *testing.T) {
	t.Parallel()
	if got := (AuthConfig{}).withDefaults(); !reflect.DeepEqual(got, AuthConfig{Mode: AuthNone}) {
		t.Errorf("AuthConfig{}.withDefaults() = %+v", got)
	}
	got := AuthConfig{Mode: AuthOAuth, Issuer: "https://id.example.com/", ResourceIdentifier: "https://mcp.example.com/mcp"}.withDefaults()
	want := AuthConfig{Mode: AuthOAuth, Issuer: "https://id.example.com/", ResourceIdentifier: "https://mcp.example.com/mcp",
		Audience: "https://mcp.example.com/mcp", JWKSURI: "https://id.example.com/.well-known/jwks.json"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("withDefaults() = %+v\nwant %+v", got, want)
	}
	given := AuthConfig{Mode: AuthOAuth, Issuer: "https://id.example.com", Audience: "aud", JWKSURI: "https://id.example.com/keys", ResourceIdentifier: "https://r"}
	if got := given.withDefaults(); !reflect.DeepEqual(got, given) {
		t.Errorf("withDefaults() changed what was set: %+v", got)
	}
}
