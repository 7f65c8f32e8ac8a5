package mcpcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The contract of the "search" tool of these tests, and one failure that no
// tool declares.
var (
	noMatch = mcpcore.Failure{
		Reason:   "no_match",
		Code:     mcperr.CodeNotFound,
		When:     "No items matched the query.",
		Recovery: "Try the search tool with broader terms.",
	}
	queueFull = mcpcore.Failure{
		Reason:    "queue_full",
		Code:      mcperr.CodeRateLimited,
		When:      "Local request queue is at capacity.",
		Recovery:  "Wait 30 seconds and retry, or reduce batch size.",
		Retryable: mcpcore.Retryable,
		ThrownBy:  mcpcore.ThrownByService,
	}
	rateLimited = mcpcore.Failure{
		Reason:    "rate_limited",
		Code:      mcperr.CodeRateLimited,
		When:      "The upstream API is throttling requests.",
		Recovery:  "Wait a few seconds before retrying.",
		Retryable: mcpcore.Retryable,
		Severity:  mcpcore.SeverityWarning,
	}
	badQuery = mcpcore.Failure{
		Reason:    "bad_query",
		Code:      mcperr.CodeValidationError,
		When:      "The query cannot be parsed.",
		Recovery:  "Rewrite the query as plain keywords without operators.",
		Retryable: mcpcore.NotRetryable,
	}
	typoReason = mcpcore.Failure{
		Reason:   "typo_reason",
		Code:     mcperr.CodeNotFound,
		When:     "Never declared by any tool.",
		Recovery: "There is nothing to recover from here at all.",
	}
)

type caseInput struct {
	Case string `json:"case,omitempty" jsonschema:"which branch of the handler to take"`
}

type okOutput struct {
	OK bool `json:"ok" jsonschema:"true on success"`
}

// lookupItem is a service: it has only a context.Context, and still carries
// the calling tool's declared recovery through mcpcore.RecoveryFor.
func lookupItem(ctx context.Context, id string) error {
	return mcperr.NotFound("No item "+id,
		mcperr.WithData(map[string]any{"reason": "no_match", "itemId": id}),
		mcpcore.RecoveryFor(ctx, noMatch))
}

// failCases is a handler that fails in the way its input names, for the
// contract rules of ctx.Fail and ctx.RecoveryFor.
func failCases(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
	switch in.Case {
	case "default_message":
		return okOutput{}, ctx.Fail(noMatch, "")
	case "caller_data":
		return okOutput{}, ctx.Fail(noMatch, "msg", mcperr.WithData(map[string]any{"itemId": "123", "source": "pubmed"}))
	case "reason_override":
		return okOutput{}, ctx.Fail(noMatch, "", mcperr.WithData(map[string]any{"reason": "something_else", "ids": []string{"a"}}))
	case "retryable_default":
		return okOutput{}, ctx.Fail(queueFull, "")
	case "retryable_override":
		return okOutput{}, ctx.Fail(queueFull, "", mcperr.WithData(map[string]any{"retryable": false}))
	case "not_retryable":
		return okOutput{}, ctx.Fail(badQuery, "")
	case "retry_not_retryable":
		// mcperr.Retry honours the contract's NotRetryable: one attempt.
		attempts := 0
		_, err := mcperr.Retry(ctx, mcperr.RetryOptions{BaseDelay: time.Millisecond}, func(context.Context) (okOutput, error) {
			attempts++
			return okOutput{}, ctx.Fail(badQuery, fmt.Sprintf("attempt %d", attempts))
		})
		return okOutput{}, err
	case "edited_copy":
		edited := noMatch
		edited.When = "Something else."
		return okOutput{}, ctx.Fail(edited, "")
	case "undeclared":
		return okOutput{}, ctx.Fail(typoReason, "never sent")
	case "recovery":
		return okOutput{}, ctx.Fail(rateLimited, "Upstream slowed down",
			mcperr.WithData(map[string]any{"attempt": 3}), ctx.RecoveryFor(rateLimited))
	case "recovery_undeclared":
		return okOutput{}, ctx.Fail(noMatch, "No items", ctx.RecoveryFor(typoReason))
	case "recovery_factory":
		return okOutput{}, mcperr.NotFound("Nothing here", ctx.RecoveryFor(noMatch))
	case "recovery_override":
		return okOutput{}, ctx.Fail(noMatch, "No item 9", ctx.RecoveryFor(noMatch),
			mcperr.WithRecovery("No item 9; try IDs 1-100 instead."))
	case "service":
		return okOutput{}, lookupItem(ctx, "7")
	case "service_derived":
		tctx, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		return okOutput{}, lookupItem(tctx, "8")
	case "service_detached":
		return okOutput{}, lookupItem(context.Background(), "9")
	case "cause":
		return okOutput{}, ctx.Fail(noMatch, "No item 7", mcperr.WithCause(errors.New("SELECT failed: password=hunter2")))
	case "auth":
		return okOutput{}, ctx.Fail(noMatch, "", mcperr.WithData(map[string]any{
			"auth": map[string]any{"token": "SECRET-TOKEN"}, "attempted": 3,
		}))
	}
	return okOutput{OK: true}, nil
}

var searchTool = mcpcore.Tool[caseInput, okOutput]{
	Name:        "search",
	Description: "Search items; fails on demand.",
	Errors:      []mcpcore.Failure{noMatch, queueFull, rateLimited, badQuery},
	Handler:     failCases,
}

// plainTool has no contract: ctx.Fail cannot succeed and RecoveryFor is a
// no-op.
var plainTool = mcpcore.Tool[caseInput, okOutput]{
	Name:        "plain",
	Description: "A tool without an error contract.",
	Handler:     failCases,
}

func TestFailDataRules(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, searchTool, plainTool)
	const (
		noMatchHint = "Try the search tool with broader terms."
		undeclared  = "ctx.Fail() called with unknown reason 'typo_reason' — not declared in the Errors of tool \"search\"."
	)
	for _, tc := range []struct {
		name, tool, c, text, structured string
	}{
		{
			name: "message defaults to When", c: "default_message", tool: "search", text: "Error: No items matched the query.",
			structured: `{"error":{"code":-32001,"message":"No items matched the query.","data":{"reason":"no_match"}}}`,
		},
		{
			name: "caller data kept, reason added", c: "caller_data", tool: "search", text: "Error: msg",
			structured: `{"error":{"code":-32001,"message":"msg","data":{"itemId":"123","source":"pubmed","reason":"no_match"}}}`,
		},
		{
			name: "reason written last", c: "reason_override", tool: "search", text: "Error: No items matched the query.",
			structured: `{"error":{"code":-32001,"message":"No items matched the query.","data":{"reason":"no_match","ids":["a"]}}}`,
		},
		{
			name: "retryable by default", c: "retryable_default", tool: "search", text: "Error: Local request queue is at capacity.",
			structured: `{"error":{"code":-32003,"message":"Local request queue is at capacity.","data":{"retryable":true,"reason":"queue_full"}}}`,
		},
		{
			name: "declared not retryable", c: "not_retryable", tool: "search", text: "Error: The query cannot be parsed.",
			structured: `{"error":{"code":-32007,"message":"The query cannot be parsed.","data":{"retryable":false,"reason":"bad_query"}}}`,
		},
		{
			name: "Retry fails fast on a declared NotRetryable", c: "retry_not_retryable", tool: "search", text: "Error: attempt 1",
			structured: `{"error":{"code":-32007,"message":"attempt 1","data":{"retryable":false,"reason":"bad_query"}}}`,
		},
		{
			name: "caller overrides retryable", c: "retryable_override", tool: "search", text: "Error: Local request queue is at capacity.",
			structured: `{"error":{"code":-32003,"message":"Local request queue is at capacity.","data":{"retryable":false,"reason":"queue_full"}}}`,
		},
		{
			name: "undeclared failure", c: "undeclared", tool: "search", text: "Error: " + undeclared,
			structured: `{"error":{"code":-32603,"message":` + quote(undeclared) + `,
				"data":{"reason":"typo_reason","declaredReasons":["no_match","queue_full","rate_limited","bad_query"]}}}`,
		},
		{
			name: "an edited copy of a declared failure", c: "edited_copy", tool: "search",
			text: "Error: ctx.Fail() called with a Failure 'no_match' that differs from the one declared in the Errors of tool \"search\"; pass the declared value.",
			structured: `{"error":{"code":-32603,
				"message":"ctx.Fail() called with a Failure 'no_match' that differs from the one declared in the Errors of tool \"search\"; pass the declared value.",
				"data":{"reason":"no_match","declaredReasons":["no_match","queue_full","rate_limited","bad_query"]}}}`,
		},
		{
			name: "recovery opted in", c: "recovery", tool: "search", text: "Error: Upstream slowed down\n\nRecovery: Wait a few seconds before retrying.",
			structured: `{"error":{"code":-32003,"message":"Upstream slowed down",
				"data":{"retryable":true,"attempt":3,"recovery":{"hint":"Wait a few seconds before retrying."},"reason":"rate_limited"}}}`,
		},
		{
			name: "recovery of an undeclared failure is a no-op", c: "recovery_undeclared", tool: "search", text: "Error: No items",
			structured: `{"error":{"code":-32001,"message":"No items","data":{"reason":"no_match"}}}`,
		},
		{
			name: "recovery for a factory", c: "recovery_factory", tool: "search", text: "Error: Nothing here\n\nRecovery: " + noMatchHint,
			structured: `{"error":{"code":-32001,"message":"Nothing here","data":{"recovery":{"hint":"` + noMatchHint + `"}}}}`,
		},
		{
			name: "recovery overridden at the failure site", c: "recovery_override", tool: "search", text: "Error: No item 9\n\nRecovery: No item 9; try IDs 1-100 instead.",
			structured: `{"error":{"code":-32001,"message":"No item 9","data":{"reason":"no_match","recovery":{"hint":"No item 9; try IDs 1-100 instead."}}}}`,
		},
		{
			name: "service resolves recovery from context.Context", c: "service", tool: "search", text: "Error: No item 7\n\nRecovery: " + noMatchHint,
			structured: `{"error":{"code":-32001,"message":"No item 7","data":{"reason":"no_match","itemId":"7","recovery":{"hint":"` + noMatchHint + `"}}}}`,
		},
		{
			name: "service through a derived context", c: "service_derived", tool: "search", text: "Error: No item 8\n\nRecovery: " + noMatchHint,
			structured: `{"error":{"code":-32001,"message":"No item 8","data":{"reason":"no_match","itemId":"8","recovery":{"hint":"` + noMatchHint + `"}}}}`,
		},
		{
			name: "service with a context of no call", c: "service_detached", tool: "search", text: "Error: No item 9",
			structured: `{"error":{"code":-32001,"message":"No item 9","data":{"reason":"no_match","itemId":"9"}}}`,
		},
		{
			name: "auth key stripped", c: "auth", tool: "search", text: "Error: No items matched the query.",
			structured: `{"error":{"code":-32001,"message":"No items matched the query.","data":{"attempted":3,"reason":"no_match"}}}`,
		},
		{
			name: "no contract: Fail is an internal error", c: "default_message", tool: "plain",
			text: "Error: ctx.Fail() called with unknown reason 'no_match' — not declared in the Errors of tool \"plain\".",
			structured: `{"error":{"code":-32603,
				"message":"ctx.Fail() called with unknown reason 'no_match' — not declared in the Errors of tool \"plain\".",
				"data":{"reason":"no_match","declaredReasons":[]}}}`,
		},
		{
			name: "no contract: RecoveryFor is a no-op", c: "recovery_factory", tool: "plain", text: "Error: Nothing here",
			structured: `{"error":{"code":-32001,"message":"Nothing here"}}`,
		},
		{
			name: "no contract: service RecoveryFor is a no-op", c: "service", tool: "plain", text: "Error: No item 7",
			structured: `{"error":{"code":-32001,"message":"No item 7","data":{"reason":"no_match","itemId":"7"}}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := wiretest.CallTool(t, cs, tc.tool, map[string]any{"case": tc.c})
			if got := wiretest.Text(t, res); got != tc.text {
				t.Errorf("content[0].text:\n got %q\nwant %q", got, tc.text)
			}
			assertResult(t, res, `{"isError":true,"content":[{"type":"text","text":`+quote(tc.text)+`}],"structuredContent":`+tc.structured+`}`)
		})
	}

	t.Run("cause stays off the wire", func(t *testing.T) {
		res := wiretest.CallTool(t, cs, "search", map[string]any{"case": "cause"})
		assertResult(t, res, `{"isError":true,"content":[{"type":"text","text":"Error: No item 7"}],
			"structuredContent":{"error":{"code":-32001,"message":"No item 7","data":{"reason":"no_match"}}}}`)
		if wire := wiretest.Canonical(t, wiretest.JSON(t, res)); strings.Contains(wire, "SELECT") {
			t.Errorf("the cause reached the wire: %s", wire)
		}
		// It is the server's to know: the failure record carries it, with
		// its secret redacted.
		var found bool
		for _, r := range logs.Failures(t, "search") {
			if r["msg"] == "Error in tool:search: No item 7" {
				found = r["cause"] == "SELECT failed: password=[REDACTED]"
			}
		}
		if !found || strings.Contains(logs.String(), "hunter2") {
			t.Errorf("the failure record does not carry the redacted cause; log:\n%s", logs)
		}
	})

	t.Run("success", func(t *testing.T) {
		res := wiretest.CallTool(t, cs, "search", map[string]any{})
		assertResult(t, res, `{"content":[{"type":"text","text":"{\n  \"ok\": true\n}"}],"structuredContent":{"ok":true}}`)
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestRecoveryForOutsideACall(t *testing.T) {
	t.Parallel()
	// Any context.Context is accepted; one that no call made adds nothing.
	e := mcperr.NotFound("x", mcpcore.RecoveryFor(context.Background(), noMatch))
	if e.Data() != nil {
		t.Errorf("data = %v, want none", e.Data())
	}
	// A nil *Context is safe too.
	var c *mcpcore.Context
	if e := mcperr.NotFound("x", c.RecoveryFor(noMatch)); e.Data() != nil {
		t.Errorf("data = %v, want none", e.Data())
	}
}

// listTool returns the tool of tools/list with the given name.
func listTool(t *testing.T, cs *mcp.ClientSession, name string) *mcp.Tool {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("tool %q not listed", name)
	return nil
}

func TestToolsListPublishesTheContract(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, searchTool, plainTool)

	search := listTool(t, cs, "search")
	// In declaration order; retryable only when declared; severity and
	// ThrownBy are not published.
	wiretest.AssertJSON(t, "_meta", search.Meta, `{"mcpcore/errors":[
		{"reason":"no_match","code":-32001,"when":"No items matched the query.","recovery":"Try the search tool with broader terms."},
		{"reason":"queue_full","code":-32003,"when":"Local request queue is at capacity.","recovery":"Wait 30 seconds and retry, or reduce batch size.","retryable":true},
		{"reason":"rate_limited","code":-32003,"when":"The upstream API is throttling requests.","recovery":"Wait a few seconds before retrying.","retryable":true},
		{"reason":"bad_query","code":-32007,"when":"The query cannot be parsed.","recovery":"Rewrite the query as plain keywords without operators.","retryable":false}]}`)

	plain := listTool(t, cs, "plain")
	if m := wiretest.JSON(t, plain).(map[string]any); m["_meta"] != nil {
		t.Errorf("a tool without contract has _meta %v", m["_meta"])
	}

	// The input schema is strict at the root.
	if ap := wiretest.JSON(t, search.InputSchema).(map[string]any)["additionalProperties"]; ap != false {
		t.Errorf("inputSchema.additionalProperties = %v, want false", ap)
	}

	// data.reason describes the declared reasons, as examples, never as an
	// enum: reasons can come from below the handler.
	reason := dig(t, wiretest.JSON(t, search.OutputSchema), "properties", "error", "properties", "data", "properties", "reason").(map[string]any)
	wiretest.AssertJSON(t, "reason.examples", reason["examples"], `["no_match","queue_full","rate_limited","bad_query"]`)
	if reason["enum"] != nil {
		t.Errorf("data.reason is an enum: %v", reason["enum"])
	}
	desc, _ := reason["description"].(string)
	for _, want := range []string{"`no_match`: No items matched the query.", "`queue_full`: Local request queue is at capacity."} {
		if !strings.Contains(desc, want) {
			t.Errorf("data.reason description %q does not contain %q", desc, want)
		}
	}
}

// dig walks a generic JSON value along keys.
func dig(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("at %q: %v is not an object", k, v)
		}
		v = m[k]
	}
	return v
}

// TestOutputSchemaAcceptsBothSurfaces validates what a client receives
// against the outputSchema it was advertised, as the TypeScript SDK does
// even for error results.
func TestOutputSchemaAcceptsBothSurfaces(t *testing.T) {
	t.Parallel()
	type strictInput struct {
		N int `json:"n" jsonschema:"a number"`
	}
	type listOutput struct {
		Items []string `json:"items" jsonschema:"the items"`
		Total int      `json:"total" jsonschema:"how many"`
	}
	listing := mcpcore.Tool[strictInput, listOutput]{
		Name:   "listing",
		Errors: []mcpcore.Failure{noMatch, queueFull, rateLimited},
		Handler: func(ctx *mcpcore.Context, in strictInput) (listOutput, error) {
			switch in.N {
			case 0:
				return listOutput{}, ctx.Fail(rateLimited, "", ctx.RecoveryFor(rateLimited), mcperr.WithData(map[string]any{"attempt": 1}))
			case 1:
				return listOutput{}, errors.New("something broke")
			}
			return listOutput{Items: []string{"a", "b"}, Total: 2}, nil
		},
	}
	cs, _ := connect(t, listing, searchTool)

	for _, name := range []string{"listing", "search"} {
		t.Run(name, func(t *testing.T) {
			raw, err := json.Marshal(listTool(t, cs, name).OutputSchema)
			if err != nil {
				t.Fatal(err)
			}
			var s jsonschema.Schema
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			resolved, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			var instances []any
			if name == "listing" {
				for _, args := range []map[string]any{{"n": 2}, {"n": 0}, {"n": 1}, {"n": "not a number"}} {
					instances = append(instances, wiretest.JSON(t, wiretest.CallTool(t, cs, "listing", args).StructuredContent))
				}
			} else {
				for _, c := range []string{"", "recovery", "undeclared", "caller_data"} {
					instances = append(instances, wiretest.JSON(t, wiretest.CallTool(t, cs, "search", map[string]any{"case": c}).StructuredContent))
				}
			}
			for i, inst := range instances {
				if err := resolved.Validate(inst); err != nil {
					t.Errorf("result %d %s does not validate against the advertised outputSchema: %v", i, wiretest.Canonical(t, inst), err)
				}
			}
			if err := resolved.Validate(map[string]any{}); err == nil {
				t.Errorf("{} validates against the advertised outputSchema")
			}
		})
	}
}

func TestFailureSeverityAndThrownByAreNotPublished(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, searchTool)
	wire := wiretest.Canonical(t, wiretest.JSON(t, listTool(t, cs, "search")))
	for _, word := range []string{"severity", "Severity", "thrownBy", "ThrownBy", "warning"} {
		if strings.Contains(wire, word) {
			t.Errorf("tools/list mentions %q: %s", word, wire)
		}
	}
}

func TestZeroContextReportsTheMistake(t *testing.T) {
	t.Parallel()
	var c mcpcore.Context
	e := c.Fail(noMatch, "x")
	if e.Code() != mcperr.CodeInternalError || !strings.Contains(e.Message(), "mcptest.NewHarness") || !strings.Contains(e.Message(), `"no_match"`) {
		t.Errorf("Fail on a zero Context = %v", e)
	}
	if c.Err() != nil || c.Done() != nil || c.Value("k") != nil {
		t.Error("a zero Context is not a background context")
	}
	c.Logger().Debug("a zero Context logs to slog.Default")
	c.Progress(1, 2, "nothing to report to")
	if _, err := c.Sample(mcpcore.SamplingRequest{Prompt: "p"}); mcperr.CodeOf(err) != mcperr.CodeMissingClientCapability {
		t.Errorf("Sample on a zero Context = %v", err)
	}
}

func TestFailFromMapsServiceErrorsOntoTheContract(t *testing.T) {
	t.Parallel()
	busy := mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "w", Recovery: "Wait a minute, then call again.", Retryable: mcpcore.Retryable}
	down := mcpcore.Failure{Reason: "down", Code: mcperr.CodeServiceUnavailable, When: "w", Recovery: "Try again in an hour or so."}
	alsoDown := mcpcore.Failure{Reason: "also_down", Code: mcperr.CodeServiceUnavailable, When: "w", Recovery: "Try again in an hour or so."}
	// A service's own entries: one with busy's reason in its own words, one
	// the tool does not declare.
	ownBusy := mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "w", Recovery: "The service's own words, which the tool does not send."}
	undeclared := mcpcore.Failure{Reason: "throttled", Code: mcperr.CodeRateLimited, When: "w", Recovery: "Nothing the tool declares at all."}
	var got []error
	var service error
	tool := mcpcore.Tool[struct{}, struct{}]{Name: "t", Description: "d", Errors: []mcpcore.Failure{busy, down, alsoDown},
		Handler: func(ctx *mcpcore.Context, _ struct{}) (struct{}, error) {
			service = mcperr.RateLimited("Upstream quota exhausted", mcperr.WithData(map[string]any{"retryAfter": 30, "reason": "upstream_quota"}))
			got = []error{
				ctx.FailFrom(service, busy, down),
				ctx.FailFrom(fmt.Errorf("fetch: %w", service)),
				ctx.FailFrom(mcperr.ServiceUnavailable("down")),                              // two entries declare the code
				ctx.FailFrom(mcperr.ServiceUnavailable("down"), alsoDown),                    // the caller chooses
				ctx.FailFrom(mcperr.NotFound("gone"), busy, down),                            // no entry: unchanged
				ctx.FailFrom(errors.New("plain"), busy),                                      // no *mcperr.Error: unchanged
				ctx.FailFrom(nil, busy),                                                      // nil stays nil
				ctx.FailFrom(mcperr.RateLimited("x", mcperr.WithRecovery("own hint")), busy), // its own hint is kept
				ctx.FailFrom(raiseWithHint(ctx, busy), busy),                                 // the hint the service opted into
				ctx.FailFrom(raiseWithHint(ctx, ownBusy), busy),                              // the tool's words for the reason
				ctx.FailFrom(raiseWithHint(ctx, undeclared), busy),                           // a reason the tool lacks: no hint
			}
			return struct{}{}, nil
		}}
	cs, _ := connect(t, tool)
	wiretest.CallTool(t, cs, "t", map[string]any{})
	e := func(i int) *mcperr.Error { var e *mcperr.Error; errors.As(got[i], &e); return e }
	for _, i := range []int{0, 1} {
		d := e(i).Data()
		if e(i).Code() != mcperr.CodeRateLimited || e(i).Message() != "Upstream quota exhausted" || d["reason"] != "busy" ||
			d["retryAfter"] != 30 || d["retryable"] != true || e(i).RecoveryHint() != "" || !errors.Is(got[i], service) {
			t.Errorf("FailFrom #%d = %v %v", i, e(i), d)
		}
	}
	if d := e(2).Data(); d["reason"] != nil {
		t.Errorf("an ambiguous code was mapped: %v", d)
	}
	if e(3).Data()["reason"] != "also_down" {
		t.Errorf("FailFrom with alsoDown = %v", e(3).Data())
	}
	if e(4).Code() != mcperr.CodeNotFound || e(4).Data()["reason"] != nil {
		t.Errorf("an unmatched code was changed: %v", e(4))
	}
	if got[5].Error() != "plain" || got[6] != nil {
		t.Errorf("unchanged errors changed: %v, %v", got[5], got[6])
	}
	if e(7).RecoveryHint() != "own hint" {
		t.Errorf("the service's own hint was replaced: %q", e(7).RecoveryHint())
	}
	// The declared hint goes out where the service raised with it: the
	// calling tool's own Recovery for the reason, whatever the service's
	// entry says, and none for a reason the tool does not declare.
	for i, want := range map[int]string{8: busy.Recovery, 9: busy.Recovery, 10: ""} {
		if e(i).RecoveryHint() != want || e(i).Data()["reason"] != "busy" {
			t.Errorf("FailFrom #%d = %v %v, want busy with hint %q", i, e(i), e(i).Data(), want)
		}
	}
}

// raiseWithHint is a service that raises RateLimited with the declared hint
// of f, through a context derived from the call's.
func raiseWithHint(ctx context.Context, f mcpcore.Failure) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return mcperr.RateLimited("Upstream quota exhausted", mcpcore.RecoveryFor(ctx, f))
}

// TestFailFromPrefersTheReasonTheServiceNamed is the upstream's own 429
// next to the server's queue: both RateLimited, told apart by the reason
// the service stamps. On the wire, the entry named wins, its hint beside
// the upstream's retryAfter; without a reason, two entries with one code
// map neither.
func TestFailFromPrefersTheReasonTheServiceNamed(t *testing.T) {
	t.Parallel()
	queueFull := mcpcore.Failure{Reason: "queue_full", Code: mcperr.CodeRateLimited, When: "Our request queue is full.", Recovery: "Retry after 1-2 seconds."}
	rateLimited := mcpcore.Failure{Reason: "rate_limited", Code: mcperr.CodeRateLimited, When: "NCBI throttles this server.", Recovery: "Wait for the time in retryAfter, then call again."}
	down := mcpcore.Failure{Reason: "ncbi_down", Code: mcperr.CodeServiceUnavailable, When: "NCBI is down.", Recovery: "Try again in an hour or so."}
	tool := mcpcore.Tool[struct{ Case string }, struct{}]{Name: "fetch", Description: "d", Errors: []mcpcore.Failure{queueFull, rateLimited, down},
		Handler: func(ctx *mcpcore.Context, in struct{ Case string }) (struct{}, error) {
			var err error
			switch in.Case {
			case "ncbi429":
				err = mcperr.RateLimited("NCBI answered 429", mcperr.WithData(map[string]any{"reason": "rate_limited", "retryAfter": 120}),
					mcpcore.RecoveryFor(ctx, rateLimited))
			case "other_reason":
				err = mcperr.ServiceUnavailable("NCBI is down", mcperr.WithData(map[string]any{"reason": "upstream_down"}))
			case "no_reason":
				err = mcperr.RateLimited("slow down")
			}
			return struct{}{}, ctx.FailFrom(err, queueFull, rateLimited, down)
		}}
	cs, _ := connect(t, tool)
	errorOf := func(c string) map[string]any {
		res := wiretest.CallTool(t, cs, "fetch", map[string]any{"Case": c})
		sc, _ := wiretest.JSON(t, res.StructuredContent).(map[string]any)
		e, _ := sc["error"].(map[string]any)
		if !res.IsError || e == nil {
			t.Fatalf("%s: not a failure: %v", c, wiretest.Text(t, res))
		}
		return e
	}
	e := errorOf("ncbi429")
	d, _ := e["data"].(map[string]any)
	if d["reason"] != "rate_limited" || d["retryAfter"] != float64(120) || e["code"] != float64(mcperr.CodeRateLimited) {
		t.Errorf("NCBI's 429 with reason rate_limited = %v", e)
	}
	if hint, _ := d["recovery"].(map[string]any); hint["hint"] != rateLimited.Recovery {
		t.Errorf("its hint = %v, want the rate_limited entry's", d["recovery"])
	}
	// A reason no entry has: the code decides, and one entry has it.
	if d, _ := errorOf("other_reason")["data"].(map[string]any); d["reason"] != "ncbi_down" {
		t.Errorf("an unknown reason with a unique code = %v", d)
	}
	// Neither decides: two entries with the code and no reason.
	if d, _ := errorOf("no_reason")["data"].(map[string]any); d["reason"] != nil {
		t.Errorf("an ambiguous code with no reason was mapped: %v", d)
	}
}
