package mcpcore

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A call whose context has ended stops validating its arguments and
// answers as the call it is (cancelled, or timed out), not as invalid
// arguments: a client that hung up costs no more validation.
func TestDecodeArgsStopsWithTheCall(t *testing.T) {
	type item struct {
		Name string `json:"name" pattern:"^[a-z]+$"`
	}
	type input struct {
		Items []item `json:"items"`
	}
	s, err := schema.Input(reflect.TypeFor[input]())
	if err != nil {
		t.Fatal(err)
	}
	v, err := schema.NewValidator(s)
	if err != nil {
		t.Fatal(err)
	}
	raw := json.RawMessage(`{"items":[` + strings.Repeat(`{"name":"abc"},`, 50_000) + `{"name":"abc"}]}`)
	if _, err := decodeArgs[input](context.Background(), v, nil, raw); err != nil {
		t.Fatalf("a live call: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = decodeArgs[input](ctx, v, nil, raw)
	if err != context.Canceled {
		t.Fatalf("err %v, want the context's own error", err)
	}
	if code := mcperr.CodeOf(failureOf(ctx, "tool", "t", err)); code != mcperr.CodeRequestCancelled {
		t.Errorf("code %d, want RequestCancelled", code)
	}
}

// Tools, resources and prompts refuse at registration a schema whose
// validation a client could make unbounded: here a pattern tag whose
// program is thousands of instructions, each stepped per character.
func TestCostlyPatternRefused(t *testing.T) {
	type costly struct {
		ID string `json:"id" pattern:"^(a|aa){1,1000}$" maxLength:"64"`
	}
	tool := Tool[costly, struct{}]{Name: "t", Description: "d",
		Handler: func(*Context, costly) (struct{}, error) { return struct{}{}, nil }}
	res := Resource[costly, string]{Name: "r", URITemplate: "test://r/{id}",
		Handler: func(*Context, costly) (string, error) { return "", nil }}
	prompt := Prompt[costly]{Name: "p", Description: "d",
		Handler: func(*Context, costly) ([]*mcp.PromptMessage, error) { return nil, nil }}
	for _, def := range []Definition{tool, res, prompt} {
		_, err := NewServer(Info{Name: "s"}, &ServerOptions{}, def)
		if err == nil || !strings.Contains(err.Error(), "cannot be bounded") || !strings.Contains(err.Error(), "(a|aa){1,1000}") {
			t.Errorf("%T: NewServer: %v", def, err)
		}
	}
}
