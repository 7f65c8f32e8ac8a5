//lint:file-ignore SA1019 the greet tool samples, which is deprecated from protocol 2026-07-28 (SEP-2577) but stays in the protocol through its deprecation window.

package mcpcore_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
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
	srv, _ := newServer(t, authedOptions(t, map[string]string{
		"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": testSecret, "MCP_SESSION_MODE": "stateless"}), greet)
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

// Every round of a call runs its handler, so every round counts against the
// definition's quota: a round replayed with its requestState (valid for an
// hour) does not run the handler past the quota.
func TestEveryRoundCountsAgainstTheQuota(t *testing.T) {
	t.Parallel()
	var runs atomic.Int32
	tool := signup(false)
	tool.RateLimit = mcpcore.RateLimit{Calls: 3, Per: time.Minute}
	handler := tool.Handler
	tool.Handler = func(ctx *mcpcore.Context, in none) (said, error) { runs.Add(1); return handler(ctx, in) }
	srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{"MCP_SESSION_MODE": "stateless"})}, tool)
	cs := roundsClient(t, serveHTTP(t, srv), nil)
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "signup", Arguments: map[string]any{}})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first round = %v, %v", first, err)
	}
	second := &mcp.CallToolParams{Name: "signup", Arguments: map[string]any{}, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{"mcpcore/elicitation-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada"}}}}
	var answered, refused int
	for range 12 {
		res, err := cs.CallTool(ctx, second)
		switch {
		case err != nil:
			t.Fatal(err)
		case !res.IsError && wiretest.Text(t, res) == "ada/free":
			answered++
		case res.IsError && errorResult(t, res)["code"] == float64(mcperr.CodeRateLimited):
			refused++
		default:
			t.Fatalf("second round: %s", wiretest.Canonical(t, res))
		}
	}
	// The quota of 3: the first round and two second rounds.
	if answered != 2 || refused != 10 || runs.Load() != 3 {
		t.Errorf("12 replays of the second round: %d answered, %d refused, the handler ran %d times; want 2, 10, 3 (the first round counts too)",
			answered, refused, runs.Load())
	}
	// A fresh call is over the quota as well.
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "signup", Arguments: map[string]any{}}); err != nil || !res.IsError {
		t.Errorf("a fresh call over the quota = %v, %v; want RateLimited", res, err)
	}
}
