package mcpcore_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type lookupInput struct {
	PMIDs []string `json:"pmids,omitempty"`
	Query string   `json:"query,omitempty" minLength:"2"`
}

// Validate checks what the schema cannot: one of the two, not both.
func (in lookupInput) Validate() error {
	switch {
	case len(in.PMIDs) > 0 && in.Query != "":
		return mcpcore.InputIssues{
			{Path: []any{"query"}, Message: "give pmids or query, not both"},
			{Path: []any{"pmids", 0}, Message: "remove the pmids to search by query"},
		}
	case len(in.PMIDs) == 0 && in.Query == "":
		return errors.New("give pmids or a query")
	}
	return nil
}

// TestValidateJoinsTheValidationError calls a tool whose input type has a
// Validate method: its issues come back in the ValidationError, as the
// schema's do; it runs only on input the schema accepts.
func TestValidateJoinsTheValidationError(t *testing.T) {
	t.Parallel()
	var handled atomic.Int32
	tool := mcpcore.Tool[lookupInput, struct{}]{Name: "search", Description: "d",
		Handler: func(*mcpcore.Context, lookupInput) (struct{}, error) { handled.Add(1); return struct{}{}, nil }}
	cs, _ := connect(t, tool)
	errorOf := func(args map[string]any) map[string]any {
		res := wiretest.CallTool(t, cs, "search", args)
		sc, _ := wiretest.JSON(t, res.StructuredContent).(map[string]any)
		e, _ := sc["error"].(map[string]any)
		if !res.IsError || e == nil {
			t.Fatalf("%v: not a failure: %s", args, wiretest.Text(t, res))
		}
		return e
	}
	e := errorOf(map[string]any{"pmids": []string{"1"}, "query": "cats"})
	if e["code"] != float64(mcperr.CodeValidationError) || !strings.Contains(e["message"].(string), `2 issues: at pmids[0]: remove the pmids to search by query; at query: give pmids or query, not both`) &&
		!strings.Contains(e["message"].(string), `2 issues: at query: give pmids or query, not both; at pmids[0]: remove the pmids to search by query`) {
		t.Errorf("both = %v", e)
	}
	issues := wiretest.Canonical(t, e["data"].(map[string]any)["issues"])
	if !strings.Contains(issues, `{"keyword":"validate","message":"give pmids or query, not both","path":["query"]}`) ||
		!strings.Contains(issues, `"path":["pmids",0]`) {
		t.Errorf("data.issues = %s", issues)
	}
	e = errorOf(map[string]any{})
	if e["message"] != "give pmids or a query" || !strings.Contains(wiretest.Canonical(t, e["data"].(map[string]any)["issues"]), `"path":[]`) {
		t.Errorf("a plain error = %v", e)
	}
	// The schema's own issue first: Validate does not run on such input.
	e = errorOf(map[string]any{"query": "x"})
	if !strings.Contains(e["message"].(string), "at query:") || strings.Contains(e["message"].(string), "pmids") {
		t.Errorf("a schema issue = %v", e)
	}
	if n := handled.Load(); n != 0 {
		t.Errorf("the handler ran %d times on invalid input", n)
	}
	if res := wiretest.CallTool(t, cs, "search", map[string]any{"query": "cats"}); res.IsError || handled.Load() != 1 {
		t.Errorf("a valid call: %s (handled %d)", wiretest.Text(t, res), handled.Load())
	}
}

type pmidArgs struct {
	PMID  string `json:"pmid" pattern:"^[0-9]+$" patternMessage:"PMID must be a numeric identifier (e.g. 13054692). Remove any whitespace or prefix such as PMID:."`
	Limit int    `json:"limit,omitempty" maximum:"100" maximumMessage:"Ask for at most 100 articles; page with the cursor for more."`
}

// TestConstraintMessages: a keyword's own message, given as a
// <keyword>Message tag, replaces its issue message on the wire and is
// published as errorMessage; a message tag without its keyword stops
// NewServer.
func TestConstraintMessages(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[pmidArgs, struct{}]{Name: "fetch", Description: "d",
		Handler: func(*mcpcore.Context, pmidArgs) (struct{}, error) { return struct{}{}, nil }}
	cs, _ := connect(t, tool)
	res := wiretest.CallTool(t, cs, "fetch", map[string]any{"pmid": "PMID: 1", "limit": 500})
	sc, _ := wiretest.JSON(t, res.StructuredContent).(map[string]any)
	e, _ := sc["error"].(map[string]any)
	msg, _ := e["message"].(string)
	if !strings.Contains(msg, "at pmid: PMID must be a numeric identifier (e.g. 13054692).") || !strings.Contains(msg, "at limit: Ask for at most 100 articles") {
		t.Errorf("message = %q", msg)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := wiretest.Canonical(t, tools.Tools[0].InputSchema); !strings.Contains(s, `"errorMessage":{"pattern":"PMID must be a numeric identifier`) {
		t.Errorf("published schema = %s", s)
	}
	bad := mcpcore.Tool[struct {
		ID string `json:"id" patternMessage:"digits only"`
	}, struct{}]{Name: "bad", Description: "d", Handler: func(*mcpcore.Context, struct {
		ID string `json:"id" patternMessage:"digits only"`
	}) (struct{}, error) {
		return struct{}{}, nil
	}}
	if e := newServerErr(t, bad); !strings.Contains(e.Message(), "a patternMessage tag needs a pattern tag beside it") {
		t.Errorf("NewServer with a lone patternMessage: %v", e)
	}
}

// cyclicInput's Validate returns an error tree without end, as its Shape
// says: an Unwrap that returns itself (the standard errors.As never
// returns on it) or a join that holds itself (errors.As overflows the
// stack, which no recover catches).
type cyclicInput struct {
	Shape string `json:"shape"`
}

func (in cyclicInput) Validate() error {
	switch in.Shape {
	case "self":
		return &selfError{}
	case "join":
		return &selfJoinError{}
	case "wrapped":
		return errors.Join(errors.New("first"), &selfError{})
	}
	return nil
}

// TestValidateWithAnEndlessErrorTree: a Validate method whose error tree has
// no end gets an answer at once, the generic InternalError a handler's
// would get, for a tool's input, a prompt's arguments and a resource's
// variables alike, and the server goes on serving.
func TestValidateWithAnEndlessErrorTree(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t,
		mcpcore.Tool[cyclicInput, okOutput]{Name: "check", Description: "d",
			Handler: func(*mcpcore.Context, cyclicInput) (okOutput, error) { return okOutput{OK: true}, nil }},
		mcpcore.Prompt[cyclicInput]{Name: "brief",
			Handler: func(*mcpcore.Context, cyclicInput) ([]*mcp.PromptMessage, error) {
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "ok"}}}, nil
			}},
		mcpcore.Resource[cyclicInput, string]{Name: "shape", URITemplate: "test://shapes/{shape}",
			Handler: func(*mcpcore.Context, cyclicInput) (string, error) { return "ok", nil }},
	)
	const internal = `{"content":[{"type":"text","text":"Error: An internal error occurred in tool check."}],"isError":true,
		"structuredContent":{"error":{"code":-32603,"message":"An internal error occurred in tool check."}}}`
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, shape := range []string{"self", "join", "wrapped"} {
		res := callWithin(t, cs, "check", map[string]any{"shape": shape})
		wiretest.AssertJSON(t, "tool, "+shape, resultJSON(t, res), internal)

		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "brief", Arguments: map[string]string{"shape": shape}})
		if e := rpcError(t, err); e.Code != int64(mcperr.CodeInternalError) {
			t.Errorf("prompt, %s: %v, want InternalError", shape, err)
		}
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://shapes/" + shape})
		if e := rpcError(t, err); e.Code != int64(mcperr.CodeInternalError) {
			t.Errorf("resource, %s: %v, want InternalError", shape, err)
		}
	}
	if ctx.Err() != nil {
		t.Fatal("no answer in time")
	}
	wiretest.AssertJSON(t, "after", callWithin(t, cs, "check", map[string]any{"shape": "fine"}).StructuredContent, `{"ok":true}`)
	found := false
	for _, r := range logs.Failures(t, "check") {
		found = found || r["originalType"] == "*mcpcore_test.selfError"
	}
	if !found {
		t.Errorf("no failure record names the cyclic error's type:\n%s", logs)
	}
}
