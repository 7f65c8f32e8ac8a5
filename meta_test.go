package mcpcore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TestMetaIsPublishedBesideTheContract lists a tool, a resource and a
// prompt with Meta of their own: each list carries it as _meta, the tool's
// next to the contract mcpcore publishes.
func TestMetaIsPublishedBesideTheContract(t *testing.T) {
	t.Parallel()
	concepts := map[string]any{"io.mcpmed/concepts": []any{"pubmed", "citation"}}
	tool := mcpcore.Tool[struct{}, struct{}]{Name: "fetch", Description: "d", Meta: concepts,
		Errors:  []mcpcore.Failure{{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No PMID matched.", Recovery: "Search for the article first, then fetch it."}},
		Handler: func(*mcpcore.Context, struct{}) (struct{}, error) { return struct{}{}, nil }}
	res := mcpcore.Resource[struct{}, string]{Name: "cfg", URITemplate: "config://app", Meta: map[string]any{"io.mcpmed/kind": "config"},
		Handler: func(*mcpcore.Context, struct{}) (string, error) { return "", nil }}
	prompt := mcpcore.Prompt[struct{}]{Name: "summarize", Meta: map[string]any{"io.mcpmed/kind": "prompt"},
		Handler: func(*mcpcore.Context, struct{}) ([]*mcp.PromptMessage, error) { return nil, nil }}
	cs, _ := connect(t, tool, res, prompt)
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	meta, _ := wiretest.JSON(t, tools.Tools[0].Meta).(map[string]any)
	if meta[contract.MetaKey] == nil || wiretest.Canonical(t, meta["io.mcpmed/concepts"]) != `["pubmed","citation"]` {
		t.Errorf("tools/list _meta = %v", meta)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resources.Resources[0].Meta["io.mcpmed/kind"]; got != "config" {
		t.Errorf("resources/list _meta = %v", resources.Resources[0].Meta)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := prompts.Prompts[0].Meta["io.mcpmed/kind"]; got != "prompt" {
		t.Errorf("prompts/list _meta = %v", prompts.Prompts[0].Meta)
	}
}

// TestMetaMayNotTakeMcpcoreKeys: a Meta key under "mcpcore/", an empty
// one, or a value JSON cannot encode stops NewServer, naming the key.
func TestMetaMayNotTakeMcpcoreKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		meta map[string]any
		want string
	}{
		{map[string]any{contract.MetaKey: "mine"}, `Meta key "mcpcore/errors" is mcpcore's own`},
		{map[string]any{"": 1}, "Meta has an empty key"},
		{map[string]any{"io.x/ch": make(chan int)}, `Meta key "io.x/ch"`},
	} {
		tool := mcpcore.Tool[struct{}, struct{}]{Name: "t", Description: "d", Meta: c.meta,
			Handler: func(*mcpcore.Context, struct{}) (struct{}, error) { return struct{}{}, nil }}
		if e := newServerErr(t, tool); !strings.Contains(e.Message(), c.want) || !strings.Contains(e.Message(), `tool "t"`) {
			t.Errorf("NewServer with Meta %v: %v, want %q", c.meta, e, c.want)
		}
	}
}

// TestPromptsHaveAContract: a prompt's ctx.Fail with a declared entry
// reaches the client as that failure, the contract is published in
// prompts/list, and a malformed one stops NewServer.
func TestPromptsHaveAContract(t *testing.T) {
	t.Parallel()
	unknown := mcpcore.Failure{Reason: "unknown_topic", Code: mcperr.CodeNotFound, When: "No such topic.", Recovery: "List the topics with the topics resource, then ask again."}
	prompt := mcpcore.Prompt[struct {
		Topic string `json:"topic"`
	}]{Name: "explain", Errors: []mcpcore.Failure{unknown},
		Handler: func(ctx *mcpcore.Context, in struct {
			Topic string `json:"topic"`
		}) ([]*mcp.PromptMessage, error) {
			return nil, ctx.Fail(unknown, "No topic "+in.Topic, ctx.RecoveryFor(unknown))
		}}
	cs, _ := connect(t, prompt)
	ctx := context.Background()
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if prompts.Prompts[0].Meta[contract.MetaKey] == nil {
		t.Errorf("prompts/list _meta = %v, want the contract", prompts.Prompts[0].Meta)
	}
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "explain", Arguments: map[string]string{"topic": "x"}})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != int64(mcperr.CodeNotFound) || !strings.Contains(string(rpc.Data), `"reason":"unknown_topic"`) {
		t.Errorf("prompts/get failure = %v (%s)", err, func() string {
			if rpc != nil {
				return string(rpc.Data)
			}
			return ""
		}())
	}
	bad := prompt
	bad.Errors = []mcpcore.Failure{{Reason: "no_when", Code: mcperr.CodeNotFound, Recovery: "Ask for another topic instead."}}
	if e := newServerErr(t, bad); !strings.Contains(e.Message(), `prompt "explain"`) {
		t.Errorf("NewServer with a malformed prompt contract: %v", e)
	}
}
