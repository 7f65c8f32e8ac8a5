//lint:file-ignore SA1019 sampling and roots are deprecated from protocol 2026-07-28 (SEP-2577) but stay in the protocol through its deprecation window, and clients use them.

package mcpcore_test

// Wire tests of what a handler can do besides failing: progress, sampling,
// elicitation, roots, questions over several rounds, subscriptions,
// completion. Each runs a real SDK client against the server, under the
// session protocol (2025-11-25: the server asks the client during the call)
// and, where it differs, the 2026-07-28 protocol (the questions travel in
// an input_required result and the client calls again).

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// The protocol versions of the two ways of asking the client.
const (
	sessionEra = "2025-11-25"
	resultEra  = "2026-07-28"
)

var eras = []string{sessionEra, resultEra}

type none struct{}

type said struct {
	Text string `json:"text"`
}

// start serves defs to a kit client with opts that asks for protocol
// version ("" for the latest).
func start(t *testing.T, opts *mcp.ClientOptions, version string, defs ...mcpcore.Definition) *mcptest.Client {
	t.Helper()
	return mcptest.StartWith(t, mcpcore.Info{Name: "test-server", Version: "0.0.1"},
		&mcptest.Options{Client: opts, ProtocolVersion: version, Server: &mcpcore.ServerOptions{RepeatWindow: -1}}, defs...)
}

func TestProgressIsThrottledForwardOnlyAndComplete(t *testing.T) {
	t.Parallel()
	const total = 5000
	busy := mcpcore.Tool[none, said]{
		Name: "busy", Description: "d",
		Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
			for i := range total + 1 {
				ctx.Progress(float64(i), total, fmt.Sprintf("step %d password=hunter2", i))
				ctx.Progress(float64(i)/2, total, "backwards") // never sent: progress only moves forward
			}
			return said{"done"}, nil
		},
	}
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, r.Params)
		mu.Unlock()
	}}
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			c := start(t, opts, era, busy)
			params := &mcp.CallToolParams{Name: "busy", Arguments: map[string]any{}}
			params.SetProgressToken("tok-1")
			if res, err := c.Session.CallTool(context.Background(), params); err != nil || res.IsError {
				t.Fatalf("CallTool = %v, %v", res, err)
			}
			mcptest.WaitFor(t, "the final progress notification", func() bool {
				mu.Lock()
				defer mu.Unlock()
				return len(got) > 0 && got[len(got)-1].Progress == total
			})
			mu.Lock()
			defer mu.Unlock()
			if len(got) > mcpcore.TestProgressBurst+20 {
				t.Errorf("%d notifications for %d reports in a tight loop; want the throttle to keep about %d", len(got), 2*(total+1), mcpcore.TestProgressBurst)
			}
			for i, p := range got {
				if p.ProgressToken != "tok-1" || p.Total != total {
					t.Errorf("notification %d = %+v, want token tok-1 and total %d", i, p, total)
				}
				if i > 0 && p.Progress <= got[i-1].Progress {
					t.Errorf("notification %d: progress %v after %v; progress must increase", i, p.Progress, got[i-1].Progress)
				}
				if strings.Contains(p.Message, "hunter2") {
					t.Errorf("notification %d leaks a secret: %q", i, p.Message)
				}
			}
		})
	}
	t.Run("no token, no notification", func(t *testing.T) {
		mu.Lock()
		got = nil
		mu.Unlock()
		c := start(t, opts, "", busy)
		c.CallTool("busy", map[string]any{})
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 0 {
			t.Errorf("got %d progress notifications for a call without a progress token", len(got))
		}
	})
}

var ask = mcpcore.Tool[none, said]{
	Name: "ask", Description: "Asks the model.",
	Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
		s, err := ctx.Sample(mcpcore.SamplingRequest{Prompt: "Capital of France?", MaxTokens: 10})
		if err != nil {
			return said{}, err
		}
		return said{s.Text + " (" + s.Model + ")"}, nil
	},
	Format: func(s said) ([]mcp.Content, error) { return []mcp.Content{mcpcore.Text(s.Text)}, nil },
}

func TestSampleRoundTrip(t *testing.T) {
	t.Parallel()
	opts := &mcp.ClientOptions{CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		prompt := r.Params.Messages[0].Content.(*mcp.TextContent).Text
		if prompt != "Capital of France?" || r.Params.MaxTokens != 10 {
			return nil, fmt.Errorf("unexpected request %q, %d", prompt, r.Params.MaxTokens)
		}
		return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "Paris"}, Model: "m1", Role: "assistant"}, nil
	}}
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			c := start(t, opts, era, ask)
			if got := wiretest.Text(t, c.CallTool("ask", map[string]any{})); got != "Paris (m1)" {
				t.Errorf("text = %q, want the client's answer", got)
			}
		})
	}
}

func TestSampleFailures(t *testing.T) {
	t.Parallel()
	t.Run("client without the capability", func(t *testing.T) {
		t.Parallel()
		for _, era := range eras {
			c := start(t, nil, era, ask)
			_, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
			e := rpcError(t, err)
			if e.Code != int64(mcperr.CodeMissingClientCapability) || !strings.Contains(string(e.Data), `"requiredCapabilities":{"sampling":{}}`) {
				t.Errorf("%s: error = %d %s %s, want -32021 naming sampling in data.requiredCapabilities", era, e.Code, e.Message, e.Data)
			}
		}
	})
	t.Run("client refuses", func(t *testing.T) {
		t.Parallel()
		opts := &mcp.ClientOptions{CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, errors.New("the user rejected the sampling request")
		}}
		c := start(t, opts, sessionEra, ask)
		e := errorResult(t, c.CallTool("ask", map[string]any{}))
		if e["code"] != float64(mcperr.CodeServiceUnavailable) || !strings.Contains(e["message"].(string), "sampling/createMessage") {
			t.Errorf("error = %v, want ServiceUnavailable naming the method", e)
		}
	})
}

// Account is the form of the elicitation tests.
type Account struct {
	Username string `json:"username" jsonschema:"Your preferred username"`
	Plan     string `json:"plan,omitempty" enum:"free,pro" default:"free"`
}

var declinedFailure = mcpcore.Failure{
	Reason: mcpcore.ReasonConsentDeclined, Code: mcperr.CodeInvalidRequest, Severity: mcpcore.SeverityNotice,
	When: "The user declined.", Recovery: "Ask the user before calling the tool again.",
}

// signup asks for an Account, with the options opts make of the call's
// Context.
func signup(declares bool, opts ...func(*mcpcore.Context) mcpcore.AskOption) mcpcore.Tool[none, said] {
	tool := mcpcore.Tool[none, said]{
		Name: "signup", Description: "Asks the user.",
		Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
			asked := make([]mcpcore.AskOption, len(opts))
			for i, o := range opts {
				asked[i] = o(ctx)
			}
			a, err := mcpcore.Elicit[Account](ctx, "Pick a username", asked...)
			if err != nil {
				return said{}, err
			}
			return said{a.Username + "/" + a.Plan}, nil
		},
		Format: func(s said) ([]mcp.Content, error) { return []mcp.Content{mcpcore.Text(s.Text)}, nil },
	}
	if declares {
		tool.Errors = []mcpcore.Failure{declinedFailure}
	}
	return tool
}

func answering(action string, content map[string]any, seen *mcp.ElicitParams) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if seen != nil {
			*seen = *r.Params
		}
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}}
}

func TestElicitAccept(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			var seen mcp.ElicitParams
			c := start(t, answering("accept", map[string]any{"username": "ada"}, &seen), era, signup(true))
			if got := wiretest.Text(t, c.CallTool("signup", map[string]any{})); got != "ada/free" {
				t.Errorf("text = %q, want the answer with the default applied", got)
			}
			wiretest.AssertJSON(t, "requested schema", wiretest.JSON(t, seen.RequestedSchema), `{
				"type": "object",
				"properties": {
					"username": {"type": "string", "description": "Your preferred username"},
					"plan": {"type": "string", "enum": ["free", "pro"], "default": "free"}
				},
				"required": ["username"]
			}`)
		})
	}
}

// An answer with an action the protocol does not have is the client's
// mistake: a ValidationError naming the action (cut to a bound), logged at
// notice, not an error-level incident of the server.
func TestElicitUnknownAction(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			action := "maybe" + strings.Repeat("!", 10_000)
			c := start(t, answering(action, nil, nil), era, signup(true))
			e := errorResult(t, c.CallTool("signup", map[string]any{}))
			msg, _ := e["message"].(string)
			if e["code"] != float64(mcperr.CodeValidationError) || !strings.Contains(msg, `unknown action "maybe!!!`) || len(msg) > 200 {
				t.Errorf("error = %.300v, want a short ValidationError naming the action", e)
			}
			recs := c.Logs().Find("Error in tool:signup")
			if len(recs) != 1 || recs[0]["level"] != "NOTICE" {
				t.Errorf("failure records = %v, want one at NOTICE", recs)
			}
		})
	}
}

func TestElicitDeclined(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"decline", "cancel"} {
		t.Run(action+" declared", func(t *testing.T) {
			t.Parallel()
			c := start(t, answering(action, nil, nil), sessionEra, signup(true, func(ctx *mcpcore.Context) mcpcore.AskOption {
				return mcpcore.OnDecline(declinedFailure, ctx.RecoveryFor(declinedFailure))
			}))
			mcptest.AssertFailure(t, c.CallTool("signup", map[string]any{}), declinedFailure,
				mcptest.DeclaredRecovery(), mcptest.Data("action", action))
			recs := c.Logs().Find("Error in tool:signup")
			if len(recs) != 1 || recs[0]["level"] != "NOTICE" {
				t.Errorf("failure records = %v, want one at the declared severity NOTICE", recs)
			}
		})
		// The declared hint reaches the wire only when the handler asks.
		t.Run(action+" declared, no hint asked", func(t *testing.T) {
			t.Parallel()
			c := start(t, answering(action, nil, nil), sessionEra, signup(true))
			mcptest.AssertFailure(t, c.CallTool("signup", map[string]any{}), declinedFailure,
				mcptest.NoRecovery(), mcptest.Data("action", action))
		})
	}
	t.Run("undeclared", func(t *testing.T) {
		t.Parallel()
		c := start(t, answering("decline", nil, nil), sessionEra, signup(false))
		// The framework's own consent_declined: InvalidRequest, no recovery.
		mcptest.AssertFailure(t, c.CallTool("signup", map[string]any{}),
			mcpcore.Failure{Reason: mcpcore.ReasonConsentDeclined, Code: mcperr.CodeInvalidRequest}, mcptest.Data("action", "decline"))
	})
	t.Run("answer that does not fit the form", func(t *testing.T) {
		t.Parallel()
		// The SDK's client checks the answers it relays; a client that does
		// not is caught by the server.
		opts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil }}
		c := start(t, opts, resultEra, signup(true))
		ctx := context.Background()
		first, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "signup", Arguments: map[string]any{}})
		if err != nil || len(first.InputRequests) != 1 || first.InputRequests["mcpcore/elicitation-1"] == nil {
			t.Fatalf("first round = %v, %v; want one question, keyed mcpcore/elicitation-1", first, err)
		}
		res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "signup", Arguments: map[string]any{}, RequestState: first.RequestState,
			InputResponses: mcp.InputResponseMap{"mcpcore/elicitation-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada", "plan": "gold"}}}})
		if err != nil {
			t.Fatal(err)
		}
		if e := errorResult(t, res); e["code"] != float64(mcperr.CodeValidationError) || !strings.Contains(wiretest.Canonical(t, e), "plan") {
			t.Errorf("error = %v, want ValidationError about plan", e)
		}
	})
}

// cancelledFailure is a tool's own reason for a declined question, as the
// TypeScript original's retraction tool names it.
var cancelledFailure = mcpcore.Failure{
	Reason: "cancelled", Code: mcperr.CodeRequestCancelled, Severity: mcpcore.SeverityInfo,
	When: "The user said no.", Recovery: "Ask the user whether to go ahead before calling again.",
}

// TestElicitOnDecline: OnDecline maps a declined or dismissed question to
// the entry the tool names, with the options it gives, in every era; an
// entry the contract does not declare is the InternalError of ctx.Fail.
func TestElicitOnDecline(t *testing.T) {
	t.Parallel()
	asCancelled := func(opts ...func(*mcpcore.Context) mcperr.Option) func(*mcpcore.Context) mcpcore.AskOption {
		return func(ctx *mcpcore.Context) mcpcore.AskOption {
			o := make([]mcperr.Option, len(opts))
			for i, f := range opts {
				o[i] = f(ctx)
			}
			return mcpcore.OnDecline(cancelledFailure, o...)
		}
	}
	hint := func(ctx *mcpcore.Context) mcperr.Option { return ctx.RecoveryFor(cancelledFailure) }
	withCancelled := func(tool mcpcore.Tool[none, said]) mcpcore.Tool[none, said] {
		tool.Errors = append(tool.Errors, cancelledFailure)
		return tool
	}
	for _, era := range eras {
		for _, action := range []string{"decline", "cancel"} {
			t.Run(era+" "+action, func(t *testing.T) {
				t.Parallel()
				// consent_declined is declared too: OnDecline's entry wins.
				c := start(t, answering(action, nil, nil), era, withCancelled(signup(true, asCancelled(hint))))
				mcptest.AssertFailure(t, c.CallTool("signup", map[string]any{}), cancelledFailure,
					mcptest.DeclaredRecovery(), mcptest.Data("action", action))
				recs := c.Logs().Find("Error in tool:signup")
				if len(recs) != 1 || recs[0]["level"] != "INFO" {
					t.Errorf("failure records = %v, want one at the declared severity INFO", recs)
				}
			})
		}
	}
	t.Run("no options: no hint", func(t *testing.T) {
		t.Parallel()
		c := start(t, answering("decline", nil, nil), sessionEra, withCancelled(signup(false, asCancelled())))
		mcptest.AssertFailure(t, c.CallTool("signup", map[string]any{}), cancelledFailure,
			mcptest.NoRecovery(), mcptest.Data("action", "decline"))
	})
	t.Run("an entry the contract lacks", func(t *testing.T) {
		t.Parallel()
		c := start(t, answering("decline", nil, nil), sessionEra, signup(true, asCancelled(hint)))
		e := errorResult(t, c.CallTool("signup", map[string]any{}))
		if e["code"] != float64(mcperr.CodeInternalError) || !strings.Contains(e["message"].(string), "cancelled") {
			t.Errorf("error = %v, want the InternalError of an undeclared reason", e)
		}
	})
	t.Run("an accepted answer", func(t *testing.T) {
		t.Parallel()
		c := start(t, answering("accept", map[string]any{"username": "ada"}, nil), sessionEra, withCancelled(signup(false, asCancelled(hint))))
		if res := c.CallTool("signup", map[string]any{}); res.IsError {
			t.Errorf("an accepted answer failed: %v", wiretest.Text(t, res))
		}
	})
}

// greet asks two questions in one round and keeps what it learns in the
// request state.
var greet = mcpcore.Tool[none, said]{
	Name: "greet", Description: "d",
	Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
		ctx.SetRequestState("round-1")
		a, errName := mcpcore.Elicit[Account](ctx, "Name?", mcpcore.QuestionKey("name"))
		s, errModel := ctx.Sample(mcpcore.SamplingRequest{Prompt: "Greeting?"}, mcpcore.QuestionKey("greeting"))
		if err := errors.Join(errName, errModel); err != nil {
			return said{}, err
		}
		return said{s.Text + " " + a.Username + " [" + ctx.RequestState() + "]"}, nil
	},
	Format: func(s said) ([]mcp.Content, error) { return []mcp.Content{mcpcore.Text(s.Text)}, nil },
}

func TestInputRequiredRounds(t *testing.T) {
	t.Parallel()
	opts := &mcp.ClientOptions{
		MultiRoundTrip:       &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler:   func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) { return nil, nil },
	}
	c := start(t, opts, resultEra, greet, ask)
	ctx := context.Background()
	first, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("first round = %s, want input_required with a requestState", wiretest.Canonical(t, first))
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range first.InputRequests {
			if !yield(k) {
				return
			}
		}
	})
	if !slices.Equal(keys, []string{"greeting", "name"}) {
		t.Fatalf("questions %v, want both questions of the round at once", keys)
	}
	if strings.Contains(first.RequestState, "round-1") {
		t.Errorf("requestState %q holds the handler's state in clear text... and that is allowed, but it must be signed", first.RequestState)
	}
	answers := mcp.InputResponseMap{
		"name":     &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada"}},
		"greeting": &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello"}}, Model: "m", Role: "assistant"},
	}
	retry := func(name, state string, answers mcp.InputResponseMap) (*mcp.CallToolResult, error) {
		return c.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}, InputResponses: answers, RequestState: state})
	}

	t.Run("answered", func(t *testing.T) {
		res, err := retry("greet", first.RequestState, answers)
		if err != nil || res.NeedsInput() {
			t.Fatalf("second round = %v, %v", res, err)
		}
		if got := wiretest.Text(t, res); got != "Hello ada [round-1]" {
			t.Errorf("text = %q, want the answers and the state of round 1", got)
		}
	})
	t.Run("one answer missing is asked again", func(t *testing.T) {
		res, err := retry("greet", first.RequestState, mcp.InputResponseMap{"name": answers["name"]})
		if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 || res.InputRequests["greeting"] == nil {
			t.Fatalf("round = %v, %v; want the missing question asked again", res, err)
		}
	})
	for name, state := range map[string]string{
		"altered state":            first.RequestState + "-TAMPERED",
		"forged state":             "cm91bmQtMg.AAAA",
		"state of another request": strings.Replace(first.RequestState, ".", "x.", 1),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := retry("greet", state, answers)
			if e := rpcError(t, err); e.Code != int64(mcperr.CodeInvalidParams) || !strings.Contains(e.Message, "requestState") {
				t.Errorf("error = %d %s, want InvalidParams about the requestState", e.Code, e.Message)
			}
		})
	}
	t.Run("state replayed into another tool", func(t *testing.T) {
		_, err := retry("ask", first.RequestState, nil)
		if e := rpcError(t, err); e.Code != int64(mcperr.CodeInvalidParams) {
			t.Errorf("error = %d %s, want InvalidParams", e.Code, e.Message)
		}
	})
}

func TestRoots(t *testing.T) {
	t.Parallel()
	roots := mcpcore.Tool[none, said]{
		Name: "roots", Description: "d",
		Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
			rs, err := ctx.Roots()
			if err != nil {
				return said{}, err
			}
			return said{rs[0].URI}, nil
		},
		Format: func(s said) ([]mcp.Content, error) { return []mcp.Content{mcpcore.Text(s.Text)}, nil },
	}
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			srv, _ := newServer(t, nil, roots)
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{}}})
			client.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
			ct, st := mcp.NewInMemoryTransports()
			ss, err := srv.MCPServer().Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: era})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close(); ss.Wait() })
			if got := wiretest.Text(t, wiretest.CallTool(t, cs, "roots", map[string]any{})); got != "file:///work" {
				t.Errorf("text = %q, want the client's root", got)
			}
		})
	}
}

type itemParams struct {
	ID string `json:"id"`
}

func TestSubscriptions(t *testing.T) {
	t.Parallel()
	watched := mcpcore.Resource[itemParams, string]{
		Name: "item", URITemplate: "test://items/{id}", MIMEType: "text/plain", Subscribe: true,
		Handler: func(_ *mcpcore.Context, p itemParams) (string, error) { return p.ID, nil },
	}
	fixed := mcpcore.Resource[struct{}, string]{
		Name: "fixed", URITemplate: "test://fixed", MIMEType: "text/plain",
		Handler: func(*mcpcore.Context, struct{}) (string, error) { return "fixed", nil },
	}
	touch := mcpcore.Tool[itemParams, said]{
		Name: "touch", Description: "d",
		Handler: func(ctx *mcpcore.Context, in itemParams) (said, error) {
			return said{"ok"}, ctx.NotifyResourceUpdated("test://items/" + in.ID)
		},
	}
	updated := make(chan string, 10)
	c := start(t, &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		updated <- r.Params.URI
	}}, sessionEra, watched, fixed, touch)
	ctx := context.Background()

	if err := c.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://items/7"}); err != nil {
		t.Fatalf("Subscribe: %v", err)
	}
	c.CallTool("touch", map[string]any{"id": "8"}) // not subscribed
	c.CallTool("touch", map[string]any{"id": "7"})
	if got := receive(t, "the update notification", updated); got != "test://items/7" {
		t.Errorf("notification for %q, want test://items/7 only", got)
	}
	if err := c.Session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://items/7"}); err != nil {
		t.Fatalf("Unsubscribe: %v", err)
	}
	if err := c.Server().NotifyResourceUpdated(ctx, "test://items/7"); err != nil {
		t.Fatal(err)
	}
	if err := c.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://fixed"}); err == nil {
		t.Error("Subscribe to a resource that does not accept subscriptions succeeded")
	}
	if err := c.Server().NotifyResourceUpdated(ctx, "test://fixed"); err == nil {
		t.Error("NotifyResourceUpdated for a resource without Subscribe succeeded")
	}
	select {
	case uri := <-updated:
		t.Errorf("notification for %q after unsubscribing", uri)
	default:
	}

	list, err := c.Session.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != "test://fixed" {
		t.Errorf("resources/list = %v, %v; want the URI without variables as a resource", list, err)
	}
	read, err := c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://fixed"})
	if err != nil || read.Contents[0].Text != "fixed" {
		t.Errorf("read = %v, %v", read, err)
	}
}

type pickArgs struct {
	Fruit string `json:"fruit"`
	Size  string `json:"size,omitempty"`
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	many := make([]string, 150)
	for i := range many {
		many[i] = fmt.Sprintf("s%03d", i)
	}
	pick := mcpcore.Prompt[pickArgs]{
		Name: "pick", Description: "d",
		Complete: map[string]mcpcore.CompleteFunc{
			"fruit": func(_ context.Context, value string, _ map[string]string) ([]string, error) {
				if value == "boom" {
					return nil, mcperr.ServiceUnavailable("catalog down")
				}
				if value == "panic" {
					panic("completer bug")
				}
				var out []string
				for _, f := range []string{"apple", "apricot", "banana"} {
					if strings.HasPrefix(f, value) {
						out = append(out, f)
					}
				}
				return out, nil
			},
			"size": func(context.Context, string, map[string]string) ([]string, error) { return many, nil },
		},
		Handler: func(*mcpcore.Context, pickArgs) ([]*mcp.PromptMessage, error) { return nil, nil },
	}
	c := start(t, nil, "", pick)
	complete := func(arg, value string) (*mcp.CompleteResult, error) {
		return c.Session.Complete(context.Background(), &mcp.CompleteParams{
			Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "pick"}, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
	}
	res, err := complete("fruit", "ap")
	if err != nil || !slices.Equal(res.Completion.Values, []string{"apple", "apricot"}) {
		t.Errorf("complete(fruit, ap) = %v, %v", res, err)
	}
	res, err = complete("size", "")
	if err != nil || len(res.Completion.Values) != mcpcore.TestMaxCompletions || !res.Completion.HasMore || res.Completion.Total != 150 {
		t.Errorf("complete(size) = %d values, hasMore %v, total %d, %v; want 100, true, 150", len(res.Completion.Values), res.Completion.HasMore, res.Completion.Total, err)
	}
	for value, code := range map[string]mcperr.Code{"boom": mcperr.CodeServiceUnavailable, "panic": mcperr.CodeInternalError} {
		_, err = complete("fruit", value)
		if e := rpcError(t, err); e.Code != int64(code) || strings.Contains(e.Message, "completer bug") {
			t.Errorf("complete(fruit, %s) error = %d %q, want %v without the panic's text", value, e.Code, e.Message, code)
		}
	}
	res, err = c.Session.Complete(context.Background(), &mcp.CompleteParams{
		Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "other"}, Argument: mcp.CompleteParamsArgument{Name: "x", Value: "y"}})
	if err != nil || len(res.Completion.Values) != 0 {
		t.Errorf("complete of an unknown prompt = %v, %v; want no suggestions", res, err)
	}
}

func TestCompletionOfUnknownArgumentIsRefusedAtStart(t *testing.T) {
	t.Parallel()
	bad := mcpcore.Prompt[pickArgs]{
		Name: "pick", Description: "d",
		Complete: map[string]mcpcore.CompleteFunc{"colour": func(context.Context, string, map[string]string) ([]string, error) { return nil, nil }},
		Handler:  func(*mcpcore.Context, pickArgs) ([]*mcp.PromptMessage, error) { return nil, nil },
	}
	_, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, &mcpcore.ServerOptions{}, bad)
	if err == nil || !strings.Contains(err.Error(), `"colour"`) {
		t.Errorf("NewServer = %v, want an error naming the unknown argument", err)
	}
}

func TestHandWrittenInputSchema(t *testing.T) {
	t.Parallel()
	raw := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"n":{"$anchor":"num","type":"integer"}},` +
		`"properties":{"a":{"$ref":"#/$defs/n"}},"if":{"required":["a"]},"then":{"properties":{"a":{"minimum":1}}},"additionalProperties":false}`
	tool := mcpcore.Tool[map[string]any, said]{
		Name: "raw", Description: "d", InputSchema: []byte(raw),
		Handler: func(_ *mcpcore.Context, in map[string]any) (said, error) { return said{fmt.Sprint(in["a"])}, nil },
	}
	c := start(t, nil, "", tool)
	list, err := c.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.AssertJSON(t, "inputSchema", wiretest.JSON(t, list.Tools[0].InputSchema), raw)
	if e := errorResult(t, c.CallTool("raw", map[string]any{"a": 0})); e["code"] != float64(mcperr.CodeValidationError) {
		t.Errorf("a=0 error = %v, want ValidationError from the if/then rule", e)
	}
	if e := errorResult(t, c.CallTool("raw", map[string]any{"b": 1})); e["code"] != float64(mcperr.CodeValidationError) {
		t.Errorf("b=1 error = %v, want ValidationError from additionalProperties", e)
	}
	if res := c.CallTool("raw", map[string]any{"a": 3}); res.IsError {
		t.Errorf("a=3 failed: %v", wiretest.Text(t, res))
	}
}

// Name and Confirm are the questions of a handler that asks one after the
// other.
type Name struct {
	Name string `json:"name"`
}

type Confirm struct {
	OK bool `json:"ok"`
}

func TestQuestionsOneAfterAnother(t *testing.T) {
	t.Parallel()
	runs := 0
	var mu sync.Mutex
	tool := mcpcore.Tool[none, said]{
		Name: "steps", Description: "d",
		Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
			mu.Lock()
			runs++
			mu.Unlock()
			n, err := mcpcore.Elicit[Name](ctx, "Name?")
			if err != nil {
				return said{}, err
			}
			c, err := mcpcore.Elicit[Confirm](ctx, "Sure, "+n.Name+"?")
			if err != nil {
				return said{}, err
			}
			return said{fmt.Sprintf("%s %v", n.Name, c.OK)}, nil
		},
		Format: func(s said) ([]mcp.Content, error) { return []mcp.Content{mcpcore.Text(s.Text)}, nil },
	}
	var asked []string
	opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		asked = append(asked, r.Params.Message)
		mu.Unlock()
		if r.Params.Message == "Name?" {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "ada"}}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
	}}
	for era, wantRuns := range map[string]int{sessionEra: 1, resultEra: 3} {
		mu.Lock()
		runs, asked = 0, nil
		mu.Unlock()
		c := start(t, opts, era, tool)
		if got := wiretest.Text(t, c.CallTool("steps", map[string]any{})); got != "ada true" {
			t.Errorf("%s: text = %q", era, got)
		}
		mu.Lock()
		if runs != wantRuns || !slices.Equal(asked, []string{"Name?", "Sure, ada?"}) {
			t.Errorf("%s: %d runs asking %q; want %d runs, each question asked once", era, runs, asked, wantRuns)
		}
		mu.Unlock()
	}
}

func TestQuestionKeysAreTheHandlersToKeepApart(t *testing.T) {
	t.Parallel()
	opts := answering("accept", map[string]any{"name": "ada"}, nil)
	for name, handler := range map[string]func(*mcpcore.Context, none) (said, error){
		"twice": func(ctx *mcpcore.Context, _ none) (said, error) {
			_, err1 := mcpcore.Elicit[Name](ctx, "a", mcpcore.QuestionKey("q"))
			_, err2 := mcpcore.Elicit[Name](ctx, "b", mcpcore.QuestionKey("q"))
			return said{}, errors.Join(err1, err2)
		},
		"reserved": func(ctx *mcpcore.Context, _ none) (said, error) {
			_, err := mcpcore.Elicit[Name](ctx, "a", mcpcore.QuestionKey("mcpcore/elicitation-2"))
			return said{}, err
		},
	} {
		for _, era := range eras {
			c := start(t, opts, era, mcpcore.Tool[none, said]{Name: "keys", Description: "d", Handler: handler})
			e := errorResult(t, c.CallTool("keys", map[string]any{}))
			if e["code"] != float64(mcperr.CodeInternalError) || !strings.Contains(e["message"].(string), "key") {
				t.Errorf("%s, %s: error = %v, want an InternalError about the key", name, era, e)
			}
		}
	}
}

func TestRequestStateIsBoundToTheArguments(t *testing.T) {
	t.Parallel()
	opts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil }}
	tool := mcpcore.Tool[itemParams, said]{
		Name: "del", Description: "d",
		Handler: func(ctx *mcpcore.Context, in itemParams) (said, error) {
			ctx.SetRequestState("checked " + in.ID)
			if _, err := mcpcore.Elicit[Confirm](ctx, "Delete "+in.ID+"?", mcpcore.QuestionKey("ok")); err != nil {
				return said{}, err
			}
			return said{ctx.RequestState()}, nil
		},
		Format: func(s said) ([]mcp.Content, error) { return []mcp.Content{mcpcore.Text(s.Text)}, nil },
	}
	c := start(t, opts, resultEra, tool)
	ctx := context.Background()
	first, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "del", Arguments: map[string]any{"id": "A"}})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first round = %v, %v", first, err)
	}
	answers := mcp.InputResponseMap{"ok": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}}
	_, err = c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "del", Arguments: map[string]any{"id": "B"}, InputResponses: answers, RequestState: first.RequestState})
	if e := rpcError(t, err); e.Code != int64(mcperr.CodeInvalidParams) {
		t.Errorf("state of id=A for id=B: error %d %s, want InvalidParams", e.Code, e.Message)
	}
	res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "del", Arguments: map[string]any{"id": "A"}, InputResponses: answers, RequestState: first.RequestState})
	if err != nil || wiretest.Text(t, res) != "checked A" {
		t.Errorf("state of id=A for id=A = %v, %v", res, err)
	}
}

func TestQuestionsAfterTheCallEndedAreRefused(t *testing.T) {
	t.Parallel()
	late := make(chan error, 1)
	tool := mcpcore.Tool[none, said]{
		Name: "leaky", Description: "d",
		Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
			go func() {
				time.Sleep(50 * time.Millisecond)
				ctx.Progress(1, 2, "late")
				_, err := mcpcore.Elicit[Name](ctx, "late question")
				late <- err
			}()
			return said{"done"}, nil
		},
	}
	for _, era := range eras {
		c := start(t, answering("accept", map[string]any{"name": "x"}, nil), era, tool)
		c.CallTool("leaky", map[string]any{})
		if err := receive(t, "the late question's error", late); mcperr.CodeOf(err) != mcperr.CodeInternalError {
			t.Errorf("%s: a question after the call ended = %v, want InternalError", era, err)
		}
	}
}

func TestProgressDropsWhatIsNotANumber(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[none, said]{
		Name: "odd", Description: "d",
		Handler: func(ctx *mcpcore.Context, _ none) (said, error) {
			ctx.Progress(5, 10, "half")
			ctx.Progress(math.NaN(), 10, "nan")
			ctx.Progress(math.Inf(1), 10, "inf")
			ctx.Progress(1, 10, "backwards")
			for i := range 1000 {
				ctx.Progress(float64(10+i), 10, "done again") // past the total: the throttle holds
			}
			ctx.Progress(7, math.NaN(), "unknown total")
			return said{"ok"}, nil
		},
	}
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, r.Params)
		mu.Unlock()
	}}
	c := start(t, opts, "", tool)
	params := &mcp.CallToolParams{Name: "odd", Arguments: map[string]any{}}
	params.SetProgressToken(7)
	if _, err := c.Session.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	mcptest.WaitFor(t, "the first notifications", func() bool { mu.Lock(); defer mu.Unlock(); return len(got) >= 2 })
	mu.Lock()
	defer mu.Unlock()
	if len(got) > mcpcore.TestProgressBurst+5 {
		t.Errorf("%d notifications; reports past the total must stay throttled", len(got))
	}
	for i, p := range got {
		if math.IsNaN(p.Progress) || math.IsInf(p.Progress, 0) || (i > 0 && p.Progress <= got[i-1].Progress) || p.Message == "backwards" {
			t.Errorf("notification %d = %+v", i, p)
		}
	}
}

func TestHandWrittenInputSchemaMustStayBounded(t *testing.T) {
	t.Parallel()
	for name, raw := range map[string]string{
		"propertyNames":  `{"type":"object","propertyNames":{"maxLength":3}}`,
		"costly pattern": `{"type":"object","properties":{"s":{"type":"string","maxLength":64,"pattern":".{1,1000}z"}}}`,
		"contains":       `{"type":"object","properties":{"l":{"type":"array","contains":{"type":"string"}}}}`,
		"loop":           `{"type":"object","allOf":[{"$ref":"#"}]}`,
		"not an object":  `{"type":"array"}`,
	} {
		tool := mcpcore.Tool[map[string]any, said]{Name: "raw", Description: "d", InputSchema: []byte(raw),
			Handler: func(*mcpcore.Context, map[string]any) (said, error) { return said{}, nil }}
		if _, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, &mcpcore.ServerOptions{}, tool); err == nil {
			t.Errorf("%s: NewServer accepted %s", name, raw)
		}
	}
}

func TestSubscriptionsAcceptWhatAReadAccepts(t *testing.T) {
	t.Parallel()
	type digits struct {
		ID string `json:"id" pattern:"^[0-9]+$"`
	}
	watched := mcpcore.Resource[digits, string]{
		Name: "item", URITemplate: "test://items/{id}", MIMEType: "text/plain", Subscribe: true,
		Handler: func(_ *mcpcore.Context, p digits) (string, error) { return p.ID, nil },
	}
	c := start(t, nil, sessionEra, watched)
	for _, uri := range []string{"test://items/7"} {
		if err := c.Session.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Errorf("Subscribe(%s) = %v", uri, err)
		}
	}
	for _, uri := range []string{"test://items/%00", "test://items/abc", "test://other/7"} {
		if err := c.Session.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err == nil {
			t.Errorf("Subscribe(%s) succeeded; a read of it is refused", uri)
		}
	}
}

func TestContentHelpersOnTheWire(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[none, none]{
		Name: "media", Description: "d",
		Handler: func(*mcpcore.Context, none) (none, error) { return none{}, nil },
		Format: func(none) ([]mcp.Content, error) {
			return []mcp.Content{
				mcpcore.Text("t"),
				mcpcore.Image([]byte{1, 2}, "image/png"),
				mcpcore.Audio([]byte{3}, "audio/wav"),
				mcpcore.EmbeddedText("test://a", "text/plain", "a"),
				mcpcore.EmbeddedBlob("test://b", "application/octet-stream", []byte{4}),
				mcpcore.ResourceLink("test://c", "c", "text/plain"),
			}, nil
		},
	}
	prompt := mcpcore.Prompt[struct{}]{
		Name: "p", Description: "d",
		Handler: func(*mcpcore.Context, struct{}) ([]*mcp.PromptMessage, error) {
			return []*mcp.PromptMessage{
				mcpcore.UserMessage(mcpcore.EmbeddedText("test://a", "text/plain", "a")),
				mcpcore.AssistantMessage(mcpcore.Text("ok")),
			}, nil
		},
	}
	c := start(t, nil, "", tool, prompt)
	res := c.CallTool("media", map[string]any{})
	wiretest.AssertJSON(t, "content", wiretest.JSON(t, res.Content), `[
		{"type": "text", "text": "t"},
		{"type": "image", "data": "AQI=", "mimeType": "image/png"},
		{"type": "audio", "data": "Aw==", "mimeType": "audio/wav"},
		{"type": "resource", "resource": {"uri": "test://a", "mimeType": "text/plain", "text": "a"}},
		{"type": "resource", "resource": {"uri": "test://b", "mimeType": "application/octet-stream", "blob": "BA=="}},
		{"type": "resource_link", "uri": "test://c", "name": "c", "mimeType": "text/plain"}
	]`)
	got, err := c.Session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	wiretest.AssertJSON(t, "messages", wiretest.JSON(t, got.Messages), `[
		{"role": "user", "content": {"type": "resource", "resource": {"uri": "test://a", "mimeType": "text/plain", "text": "a"}}},
		{"role": "assistant", "content": {"type": "text", "text": "ok"}}
	]`)
}

func TestBytesAreBase64Strings(t *testing.T) {
	t.Parallel()
	type blob struct {
		Data []byte `json:"data"`
	}
	tool := mcpcore.Tool[blob, blob]{Name: "blob", Description: "d",
		Handler: func(_ *mcpcore.Context, in blob) (blob, error) {
			if string(in.Data) == "nil" {
				return blob{}, nil // written "data": null
			}
			return blob{Data: append(in.Data, '!')}, nil
		}}
	c := start(t, nil, "", tool)
	res := c.CallTool("blob", map[string]any{"data": "aGk="}) // "hi"
	if res.IsError {
		t.Fatalf("a []byte round trip failed: %s", wiretest.Text(t, res))
	}
	if got := wiretest.Canonical(t, res.StructuredContent); got != `{"data":"aGkh"}` {
		t.Errorf("structuredContent = %s, want the bytes as base64", got)
	}
	if res := c.CallTool("blob", map[string]any{"data": "bmls"}); res.IsError { // "nil"
		t.Errorf("a nil []byte in the output failed: %s", wiretest.Text(t, res))
	}
	list, err := c.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	in := wiretest.JSON(t, list.Tools[0].InputSchema).(map[string]any)["properties"].(map[string]any)["data"]
	wiretest.AssertJSON(t, "the input schema of a []byte", in, `{"type": "string", "contentEncoding": "base64"}`)
}
