package mcpcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// An answer over the bound is not sent: each kind of answer gets a
// well-formed error naming the limit instead, and the failure is logged.
func TestAnswersAreBounded(t *testing.T) {
	t.Parallel()
	type in struct {
		N int `json:"n"`
	}
	type out struct {
		Text string `json:"text"`
	}
	big := func(n int) string { return strings.Repeat("x", n) }
	srv, logs := newServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{MaxResultBytes: 4096}},
		mcpcore.Tool[in, out]{Name: "big", Handler: func(_ *mcpcore.Context, i in) (out, error) { return out{big(i.N)}, nil }},
		mcpcore.Resource[idParams, string]{Name: "big", URITemplate: "test://big/{id}", MIMEType: "text/plain",
			Handler: func(_ *mcpcore.Context, p idParams) (string, error) { return big(len(p.ID) * 1000), nil }},
		mcpcore.Prompt[briefArgs]{Name: "big", Complete: map[string]mcpcore.CompleteFunc{"topic": func(_ context.Context, v string, _ map[string]string) ([]string, error) {
			return []string{big(len(v) * 1000), big(len(v) * 1000)}, nil
		}}, Handler: func(_ *mcpcore.Context, a briefArgs) ([]*mcp.PromptMessage, error) {
			return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: big(len(a.Topic) * 1000)}}}, nil
		}},
	)
	cs := wiretest.Connect(t, srv.MCPServer())

	// Under the bound, answers are whole.
	if res := wiretest.CallTool(t, cs, "big", map[string]any{"n": 1000}); res.IsError {
		t.Fatalf("a 2 KB result was refused: %v", res)
	}
	res := wiretest.CallTool(t, cs, "big", map[string]any{"n": 3000})
	e := structuredError(t, res)
	data, _ := e["data"].(map[string]any)
	if e["code"] != float64(mcperr.CodeInternalError) || data["limit"] != float64(4096) || !strings.Contains(e["message"].(string), "limit of 4096 bytes") {
		t.Errorf("a 6 KB result: %v", e)
	}
	if b, _ := json.Marshal(res); len(b) > 1024 {
		t.Errorf("the refusal is %d bytes", len(b))
	}
	ctx := context.Background()
	for name, err := range map[string]error{
		"resource": func() error {
			_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://big/12345"})
			return err
		}(),
		"prompt": func() error {
			_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "big", Arguments: map[string]string{"topic": "12345"}})
			return err
		}(),
		"completion": func() error {
			_, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "big"},
				Argument: mcp.CompleteParamsArgument{Name: "topic", Value: "123"}})
			return err
		}(),
	} {
		w := rpcError(t, err)
		if w.Code != int64(mcperr.CodeInternalError) || !strings.Contains(w.Message, "limit of 4096 bytes") || !strings.Contains(string(w.Data), `"limit":4096`) {
			t.Errorf("%s: %#v", name, w)
		}
	}
	if recs := logs.Failures(t, "big"); len(recs) != 1 || !strings.Contains(recs[0]["msg"].(string), "over this server's limit") {
		t.Errorf("the tool's refusal was not logged once: %v", recs)
	}
}

// The default bound is 8 MiB.
func TestDefaultAnswerBound(t *testing.T) {
	t.Parallel()
	type in struct {
		N int `json:"n"`
	}
	type out struct {
		Text string `json:"text"`
	}
	cs, _ := connect(t, mcpcore.Tool[in, out]{Name: "big", Handler: func(_ *mcpcore.Context, i in) (out, error) {
		return out{strings.Repeat("x", i.N)}, nil
	}})
	// Text and structuredContent together: 2 × 3 MiB fits, 2 × 5 MiB does not.
	if res := wiretest.CallTool(t, cs, "big", map[string]any{"n": 3 << 20}); res.IsError {
		t.Errorf("a 6 MiB answer was refused")
	}
	if res := wiretest.CallTool(t, cs, "big", map[string]any{"n": 5 << 20}); !res.IsError {
		t.Errorf("a 10 MiB answer was sent")
	}
}

// A completer that fails on every call leaves one record and a count, not
// a record a call: a client can make it fail at will.
func TestCompleterFailuresAreCollapsed(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: time.Hour},
		mcpcore.Prompt[briefArgs]{Name: "brief", Complete: map[string]mcpcore.CompleteFunc{"topic": func(context.Context, string, map[string]string) ([]string, error) {
			return nil, mcperr.ServiceUnavailable("the index is down")
		}}, Handler: func(*mcpcore.Context, briefArgs) ([]*mcp.PromptMessage, error) { return nil, nil }})
	cs := wiretest.Connect(t, srv.MCPServer())
	for range 200 {
		_, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "brief"},
			Argument: mcp.CompleteParamsArgument{Name: "topic", Value: "a"}})
		if w := rpcError(t, err); w.Code != int64(mcperr.CodeServiceUnavailable) {
			t.Fatalf("completion: %v", err)
		}
	}
	if n := strings.Count(logs.String(), "a completer failed"); n != 1 {
		t.Errorf("%d completer records for 200 failures, want 1 until the window closes:\n%.2000s", n, logs)
	}
}
