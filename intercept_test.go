package mcpcore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

type greetIn struct {
	Name  string `json:"name" minLength:"1"`
	Greet string `json:"greet,omitempty" default:"Hello"`
}

type greetOut struct {
	Text string `json:"text"`
}

var tooBusy = mcpcore.Failure{Reason: "too_busy", Code: mcperr.CodeRateLimited, When: "The tenant's quota is spent.",
	Recovery: "Wait a minute, then call the tool again.", Severity: mcpcore.SeverityNotice}

// interceptedServer serves a tool, a resource and a prompt behind the
// interceptors given.
func interceptedServer(t *testing.T, handled *[]string, ics ...mcpcore.Interceptor) (*mcp.ClientSession, *wiretest.LogBuffer) {
	t.Helper()
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); *handled = append(*handled, s); mu.Unlock() }
	greet := mcpcore.Tool[greetIn, greetOut]{Name: "greet", Description: "Greets.", Errors: []mcpcore.Failure{tooBusy},
		Handler: func(_ *mcpcore.Context, in greetIn) (greetOut, error) {
			note("tool " + in.Name)
			if in.Name == "fail" {
				return greetOut{}, errors.New("the greeter is out of words")
			}
			return greetOut{in.Greet + ", " + in.Name}, nil
		}}
	item := mcpcore.Resource[struct {
		ID string `json:"id"`
	}, string]{Name: "item", URITemplate: "test://items/{id}", MIMEType: "text/plain",
		Handler: func(_ *mcpcore.Context, p struct {
			ID string `json:"id"`
		}) (string, error) {
			note("resource " + p.ID)
			return "item " + p.ID, nil
		}}
	hello := mcpcore.Prompt[struct {
		Topic string `json:"topic"`
	}]{Name: "hello", Description: "Says hello.",
		Handler: func(_ *mcpcore.Context, a struct {
			Topic string `json:"topic"`
		}) ([]*mcp.PromptMessage, error) {
			note("prompt " + a.Topic)
			return []*mcp.PromptMessage{{Role: "user", Content: mcpcore.Text("Talk about " + a.Topic)}}, nil
		}}
	srv, logs := newServer(t, &mcpcore.ServerOptions{Interceptors: ics}, greet, item, hello)
	return wiretest.Connect(t, srv.MCPServer()), logs
}

// TestInterceptorsSeeEveryCallDecodedAndItsOutcome: an audit interceptor
// sees the tool's, the resource's and the prompt's calls, each with its
// definition and its input decoded (defaults applied), and the outcome;
// invalid arguments never reach it; the first interceptor is outermost.
func TestInterceptorsSeeEveryCallDecodedAndItsOutcome(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var audit, handled []string
	record := func(tag string) mcpcore.Interceptor {
		return func(next mcpcore.CallFunc) mcpcore.CallFunc {
			return func(ctx *mcpcore.Context, call *mcpcore.Call) (any, error) {
				mu.Lock()
				audit = append(audit, fmt.Sprintf("%s> %s %s %+v", tag, call.Kind, call.Name, call.Input))
				mu.Unlock()
				out, err := next(ctx, call)
				mu.Lock()
				audit = append(audit, fmt.Sprintf("%s< %v %v", tag, out, err))
				mu.Unlock()
				return out, err
			}
		}
	}
	cs, _ := interceptedServer(t, &handled, record("outer"), record("inner"))
	if res := wiretest.CallTool(t, cs, "greet", map[string]any{"name": "Ada"}); res.IsError {
		t.Fatalf("greet: %s", wiretest.Text(t, res))
	}
	if res := wiretest.CallTool(t, cs, "greet", map[string]any{"name": ""}); !res.IsError {
		t.Fatalf("greet with an empty name passed validation")
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "test://items/7"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "hello", Arguments: map[string]string{"topic": "tea"}}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"outer> tool greet {Name:Ada Greet:Hello}", "inner> tool greet {Name:Ada Greet:Hello}",
		"inner< {Hello, Ada} <nil>", "outer< {Hello, Ada} <nil>",
		"outer> resource item {ID:7}", "inner> resource item {ID:7}", "inner< item 7 <nil>", "outer< item 7 <nil>",
		"outer> prompt hello {Topic:tea}", "inner> prompt hello {Topic:tea}",
	}
	if len(audit) != len(want)+2 || strings.Join(audit[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Errorf("audit:\n%s\nwant (then the prompt's two outcomes):\n%s", strings.Join(audit, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(handled, ",") != "tool Ada,resource 7,prompt tea" {
		t.Errorf("handled %v", handled)
	}
}

// TestInterceptorsRewriteAndShortCircuit: an interceptor can rewrite the
// input the handler gets, and answer without the handler (a cache); its
// output is rendered as the handler's would be.
func TestInterceptorsRewriteAndShortCircuit(t *testing.T) {
	t.Parallel()
	var handled []string
	cs, _ := interceptedServer(t, &handled, func(next mcpcore.CallFunc) mcpcore.CallFunc {
		return func(ctx *mcpcore.Context, call *mcpcore.Call) (any, error) {
			in, ok := call.Input.(greetIn)
			switch {
			case ok && in.Name == "cached":
				return greetOut{"from the cache"}, nil
			case ok:
				in.Name = strings.ToUpper(in.Name)
				call.Input = in
			}
			return next(ctx, call)
		}
	})
	res := wiretest.CallTool(t, cs, "greet", map[string]any{"name": "ada"})
	wiretest.AssertJSON(t, "rewritten", res.StructuredContent, `{"text":"Hello, ADA"}`)
	res = wiretest.CallTool(t, cs, "greet", map[string]any{"name": "cached"})
	wiretest.AssertJSON(t, "cached", res.StructuredContent, `{"text":"from the cache"}`)
	if got := wiretest.Text(t, res); got != "{\n  \"text\": \"from the cache\"\n}" {
		t.Errorf("cached text = %q", got)
	}
	if strings.Join(handled, ",") != "tool ADA" {
		t.Errorf("handled %v, want only the rewritten call", handled)
	}
}

// TestAnInterceptorsFailureIsAHandlersFailure: what an interceptor returns
// or panics with is handled as a handler's: a declared failure through
// ctx.Fail goes out with its reason and hint and is logged at its
// severity; a plain error is classified; a panic is an InternalError that
// leaves the server serving; a value of the wrong type is an InternalError.
func TestAnInterceptorsFailureIsAHandlersFailure(t *testing.T) {
	t.Parallel()
	var handled []string
	cs, logs := interceptedServer(t, &handled, func(next mcpcore.CallFunc) mcpcore.CallFunc {
		return func(ctx *mcpcore.Context, call *mcpcore.Call) (any, error) {
			in, _ := call.Input.(greetIn)
			switch in.Name {
			case "quota":
				return nil, ctx.Fail(tooBusy, "Tenant acme spent its quota", ctx.RecoveryFor(tooBusy))
			case "plain":
				return nil, errors.New("audit store: connection refused")
			case "panic":
				panic("the interceptor broke")
			case "wrong-output":
				return "not a greetOut", nil
			case "wrong-input":
				call.Input = 42
			}
			return next(ctx, call)
		}
	})
	c := func(name string) *mcp.CallToolResult {
		return wiretest.CallTool(t, cs, "greet", map[string]any{"name": name})
	}
	mcptest.AssertFailure(t, c("quota"), tooBusy, mcptest.DeclaredRecovery(), mcptest.Message("Tenant acme spent its quota"))
	if recs := logs.Failures(t, "tool:greet"); len(recs) != 1 || recs[0]["level"] != "NOTICE" {
		t.Errorf("records of the declared failure = %v, want one at NOTICE", recs)
	}
	wiretest.AssertJSON(t, "plain", c("plain").StructuredContent, `{"error":{"code":-32000,"message":"audit store: connection refused"}}`)
	internal := `{"error":{"code":-32603,"message":"An internal error occurred in tool greet."}}`
	for _, name := range []string{"panic", "wrong-output", "wrong-input"} {
		wiretest.AssertJSON(t, name, c(name).StructuredContent, internal)
	}
	if !strings.Contains(logs.String(), "the interceptor broke") || !strings.Contains(logs.String(), "whose handler returns a mcpcore_test.greetOut") ||
		!strings.Contains(logs.String(), "a int as its input, where it takes a mcpcore_test.greetIn") {
		t.Errorf("the log does not say what went wrong:\n%s", logs.String())
	}
	wiretest.AssertJSON(t, "after them all", c("ada").StructuredContent, `{"text":"Hello, ada"}`)
	if len(handled) != 1 {
		t.Errorf("handled %v, want only the last call", handled)
	}
}

// TestInterceptorsThatCannotRun stop NewServer: a nil interceptor, and one
// that returns no CallFunc.
func TestInterceptorsThatCannotRun(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[greetIn, greetOut]{Name: "greet", Description: "d",
		Handler: func(*mcpcore.Context, greetIn) (greetOut, error) { return greetOut{}, nil }}
	for name, ics := range map[string][]mcpcore.Interceptor{
		"nil":          {nil},
		"nil CallFunc": {func(mcpcore.CallFunc) mcpcore.CallFunc { return nil }},
	} {
		_, err := mcpcore.NewServer(mcpcore.Info{Name: "x"}, &mcpcore.ServerOptions{Interceptors: ics}, tool)
		var e *mcperr.Error
		if !errors.As(err, &e) || e.Code() != mcperr.CodeInitializationFailed || !strings.Contains(e.Message(), "Interceptor") {
			t.Errorf("%s: NewServer = %v", name, err)
		}
	}
}
