//lint:file-ignore SA1019 the greet tool samples, which is deprecated from protocol 2026-07-28 (SEP-2577) but stays in the protocol through its deprecation window.

package mcpcore_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// tokenFor is an HS256 token of testSecret for subject sub.
func tokenFor(t testing.TB, sub string) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": sub, "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A requestState is bound to the subject it was issued to: replayed by
// another authenticated subject, with the same tool and arguments, it is
// refused with -32602; its own subject resumes it.
func TestRequestStateIsBoundToItsSubject(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{
		"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": testSecret, "MCP_SESSION_MODE": "stateless"})}, greet)
	url := serveHTTP(t, srv)
	ctx := context.Background()
	session := func(sub string) *mcp.ClientSession {
		return roundsClient(t, url, &http.Client{Transport: bearer{tokenFor(t, sub)}})
	}
	alice, mallory := session("alice"), session("mallory")
	first, err := alice.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	if err != nil || !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("alice's first round = %v, %v", first, err)
	}
	answers := mcp.InputResponseMap{
		"name":     &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "alice"}},
		"greeting": &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello"}}, Model: "m", Role: "assistant"},
	}
	replay := &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: answers}
	for range 3 {
		_, err := mallory.CallTool(ctx, replay)
		if w := rpcError(t, err); w.Code != -32602 {
			t.Errorf("mallory's replay of alice's state: %v, want -32602", err)
		}
	}
	res, err := alice.CallTool(ctx, replay)
	if err != nil || res.IsError || res.NeedsInput() {
		t.Fatalf("alice's own second round = %v, %v", res, err)
	}
	if got := wiretest.Text(t, res); got != "Hello alice [round-1]" {
		t.Errorf("alice's answer = %q", got)
	}
}

// roundsClient connects, under 2026-07-28, a client that answers the
// server's questions itself, round by round (the SDK's own multi-round
// loop is off), to the server at url.
func roundsClient(t testing.TB, url string, hc *http.Client) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "rounds", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip:       &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler:   func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) { return nil, nil },
	})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
