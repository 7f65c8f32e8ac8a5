package mcpcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type briefArgs struct {
	Topic string `json:"topic" jsonschema:"the topic to write about"`
	Style string `json:"style,omitempty" jsonschema:"the writing style"`
}

var briefPrompt = mcpcore.Prompt[briefArgs]{
	Name:        "brief",
	Title:       "Brief",
	Description: "Write a brief on a topic.",
	Handler: func(_ *mcpcore.Context, a briefArgs) ([]*mcp.PromptMessage, error) {
		switch a.Topic {
		case "secret":
			return nil, mcperr.Forbidden("Topic secret is restricted", mcperr.WithData(map[string]any{"topic": a.Topic}))
		case "plain":
			return nil, errors.New("Topic not found")
		case "panic":
			panic("prompt exploded")
		case "nothing":
			return nil, nil
		}
		return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Write a " + a.Style + " brief on " + a.Topic + "."}}}, nil
	},
}

func TestPromptArgumentsListed(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, briefPrompt)
	list, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.AssertJSON(t, "prompts", list.Prompts, `[{"name":"brief","title":"Brief","description":"Write a brief on a topic.","arguments":[
		{"name":"topic","description":"the topic to write about","required":true},
		{"name":"style","description":"the writing style"}]}]`)
}

func TestPromptSuccess(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, briefPrompt)
	res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief", Arguments: map[string]string{"topic": "tides", "style": "short"}})
	if err != nil {
		t.Fatal(err)
	}
	wiretest.AssertJSON(t, "messages", res.Messages, `[{"role":"user","content":{"type":"text","text":"Write a short brief on tides."}}]`)
	if res.Description != "Write a brief on a topic." {
		t.Errorf("description = %q", res.Description)
	}
}

func TestPromptFailures(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, briefPrompt)
	for _, tc := range []struct {
		name string
		args map[string]string
		want string
	}{
		{"handler error", map[string]string{"topic": "secret"}, `{"code":-32005,"message":"Topic secret is restricted","data":{"topic":"secret"}}`},
		{"plain error", map[string]string{"topic": "plain"}, `{"code":-32001,"message":"Topic not found"}`},
		{"panic", map[string]string{"topic": "panic"}, `{"code":-32603,"message":"An internal error occurred in prompt brief."}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief", Arguments: tc.args})
			wiretest.AssertJSON(t, "JSON-RPC error", wireErr(t, err), tc.want)
		})
	}

	for _, tc := range []struct {
		name    string
		args    map[string]string
		path    string
		keyword string
	}{
		{"missing required argument", nil, `["topic"]`, "required"},
		{"unknown argument", map[string]string{"topic": "x", "tone": "dry"}, `[]`, "additionalProperties"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief", Arguments: tc.args})
			e := wireErr(t, err)
			if e["code"] != float64(mcperr.CodeValidationError) {
				t.Errorf("code = %v, want -32007", e["code"])
			}
			issues, _ := dig(t, e, "data", "issues").([]any)
			if len(issues) != 1 {
				t.Fatalf("issues = %v, want 1", issues)
			}
			i := issues[0].(map[string]any)
			if wiretest.Canonical(t, i["path"]) != tc.path || i["keyword"] != tc.keyword {
				t.Errorf("issue = %s, want path %s keyword %s", wiretest.Canonical(t, i), tc.path, tc.keyword)
			}
		})
	}
	if n := len(logs.Failures(t, "prompt:brief")); n != 5 {
		t.Errorf("%d failure records, want 5:\n%s", n, logs)
	}
}

// wireErr returns the JSON-RPC error inside err as the generic JSON object
// the client received.
func wireErr(t *testing.T, err error) map[string]any {
	t.Helper()
	werr := rpcError(t, err)
	m := map[string]any{"code": float64(werr.Code), "message": werr.Message}
	if werr.Data != nil {
		var data any
		if err := json.Unmarshal(werr.Data, &data); err != nil {
			t.Fatalf("data %s: %v", werr.Data, err)
		}
		m["data"] = data
	}
	return m
}

func TestPromptWithoutMessages(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, briefPrompt)
	res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief", Arguments: map[string]string{"topic": "nothing"}})
	if err != nil {
		t.Fatal(err)
	}
	// messages is a required array: never null on the wire.
	if m := wiretest.JSON(t, res).(map[string]any); wiretest.Canonical(t, m["messages"]) != "[]" {
		t.Errorf("messages = %s, want []", wiretest.Canonical(t, m["messages"]))
	}
}
