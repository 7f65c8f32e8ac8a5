//lint:file-ignore SA1019 the greet tool samples, which is deprecated from protocol 2026-07-28 (SEP-2577) but stays in the protocol through its deprecation window.

package mcpcore_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

const (
	keyOld = "old-key-0123456789abcdef0123456789abcdef"
	keyNew = "new-key-fedcba9876543210fedcba9876543210"
)

// TestRequestStateCrossesReplicasThatShareKeys: stateless replicas given
// the same MCP_STATE_KEYS resume each other's rounds; a replica that puts
// a new key first still resumes the rounds the old key signed; a replica
// without the key that signed a round refuses it with -32602.
func TestRequestStateCrossesReplicasThatShareKeys(t *testing.T) {
	t.Parallel()
	replica := func(keys string) *mcp.ClientSession {
		srv, _ := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{
			"MCP_SESSION_MODE": "stateless", "MCP_STATE_KEYS": keys})}, greet)
		return roundsClient(t, serveHTTP(t, srv), http.DefaultClient)
	}
	ctx := context.Background()
	first, err := replica(keyOld).CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	if err != nil || !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("first round = %v, %v", first, err)
	}
	answers := mcp.InputResponseMap{
		"name":     &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada"}},
		"greeting": &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello"}}, Model: "m", Role: "assistant"},
	}
	second := &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}, RequestState: first.RequestState, InputResponses: answers}
	for name, keys := range map[string]string{"the same key": keyOld, "rotated, the old key kept": keyNew + "," + keyOld} {
		res, err := replica(keys).CallTool(ctx, second)
		if err != nil || res.IsError || res.NeedsInput() || wiretest.Text(t, res) != "Hello ada [round-1]" {
			t.Errorf("%s: second round on another replica = %v, %v", name, res, err)
		}
	}
	for name, keys := range map[string]string{"another key": keyNew, "the old key dropped": keyNew + ",spare-key-0000000000000000000000000000"} {
		if _, err := replica(keys).CallTool(ctx, second); rpcError(t, err).Code != -32602 {
			t.Errorf("%s: %v, want -32602", name, err)
		}
	}
}

// TestStateKeysThatCannotSign stop the start with the variable named, and
// without the key in the message: a key under 32 characters, a key given
// twice.
func TestStateKeysThatCannotSign(t *testing.T) {
	t.Parallel()
	for keys, want := range map[string]string{
		"short":                    "MCP_STATE_KEYS: key 1 of 1 has 5 characters; each needs at least 32",
		keyOld + ",tiny," + keyNew: "MCP_STATE_KEYS: key 2 of 3 has 4 characters",
		keyOld + "," + keyOld:      "MCP_STATE_KEYS: key 2 of 2 repeats key 1",
	} {
		_, err := app.ConfigFromEnv(func(k string) string { return map[string]string{"MCP_STATE_KEYS": keys}[k] })
		var e *mcperr.Error
		if !errors.As(err, &e) || e.Code() != mcperr.CodeConfigurationError || !strings.Contains(e.Message(), want) {
			t.Errorf("MCP_STATE_KEYS=%q: %v, want %q", keys, err, want)
		}
		if e != nil && (strings.Contains(e.Message(), "tiny") || strings.Contains(e.Message(), keyOld)) {
			t.Errorf("the error shows a key: %v", e)
		}
		_, err = mcpcore.NewServer(mcpcore.Info{Name: "x"}, &mcpcore.ServerOptions{Config: mcpcore.Config{StateKeys: strings.Split(keys, ",")}}, greet)
		if !errors.As(err, &e) || !strings.Contains(e.Message(), want) {
			t.Errorf("Config.StateKeys %q: NewServer = %v, want %q", keys, err, want)
		}
	}
}
