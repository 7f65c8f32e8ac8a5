package mcpcore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

type itemsOutput struct {
	Items []string `json:"items" jsonschema:"the items found"`
	Total int      `json:"total" jsonschema:"how many items were found"`
}

// renderTool fails (or succeeds) in the way its input names, for the rules
// of rendering.
var renderTool = mcpcore.Tool[caseInput, itemsOutput]{
	Name:        "render",
	Description: "Fails on demand, to check how failures are rendered.",
	Handler: func(_ *mcpcore.Context, in caseInput) (itemsOutput, error) {
		boom := func(data map[string]any) error { return mcperr.InternalError("Boom", mcperr.WithData(data)) }
		switch in.Case {
		case "plain":
			return itemsOutput{}, errors.New("something broke")
		case "plain_not_found":
			return itemsOutput{}, errors.New("Item not found")
		case "data":
			return itemsOutput{}, mcperr.NotFound("Item not found", mcperr.WithData(map[string]any{"id": "123"}))
		case "wrapped":
			return itemsOutput{}, fmt.Errorf("fetching: %w", mcperr.NotFound("Item not found", mcperr.WithData(map[string]any{"id": "123"})))
		case "recovery":
			return itemsOutput{}, mcperr.NotFound("No items returned", mcperr.WithData(map[string]any{
				"reason": "no_match", "recovery": map[string]any{"hint": "Try the search tool with broader terms."},
			}))
		case "reason_only":
			return itemsOutput{}, boom(map[string]any{"reason": "boom"})
		case "hint_number":
			return itemsOutput{}, boom(map[string]any{"recovery": map[string]any{"hint": 42}})
		case "hint_empty":
			return itemsOutput{}, boom(map[string]any{"recovery": map[string]any{"hint": ""}})
		case "recovery_string":
			return itemsOutput{}, boom(map[string]any{"recovery": "Try again with other terms."})
		case "empty_data":
			return itemsOutput{}, mcperr.NotFound("Nothing", mcperr.WithData(map[string]any{}))
		case "empty_message":
			return itemsOutput{}, mcperr.New(mcperr.CodeInternalError, "")
		}
		return itemsOutput{Items: []string{"a", "b"}, Total: 2}, nil
	},
}

func TestRenderFailure(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, renderTool)
	for _, tc := range []struct {
		c, text, structured string
	}{
		{"plain", "Error: something broke", `{"error":{"code":-32603,"message":"something broke"}}`},
		{"plain_not_found", "Error: Item not found", `{"error":{"code":-32001,"message":"Item not found"}}`},
		{"data", "Error: Item not found", `{"error":{"code":-32001,"message":"Item not found","data":{"id":"123"}}}`},
		{"wrapped", "Error: Item not found", `{"error":{"code":-32001,"message":"Item not found","data":{"id":"123"}}}`},
		{"recovery", "Error: No items returned\n\nRecovery: Try the search tool with broader terms.",
			`{"error":{"code":-32001,"message":"No items returned","data":{"reason":"no_match","recovery":{"hint":"Try the search tool with broader terms."}}}}`},
		{"reason_only", "Error: Boom", `{"error":{"code":-32603,"message":"Boom","data":{"reason":"boom"}}}`},
		{"hint_number", "Error: Boom", `{"error":{"code":-32603,"message":"Boom","data":{"recovery":{"hint":42}}}}`},
		{"hint_empty", "Error: Boom", `{"error":{"code":-32603,"message":"Boom","data":{"recovery":{"hint":""}}}}`},
		{"recovery_string", "Error: Boom", `{"error":{"code":-32603,"message":"Boom","data":{"recovery":"Try again with other terms."}}}`},
		{"empty_data", "Error: Nothing", `{"error":{"code":-32001,"message":"Nothing","data":{}}}`},
		{"empty_message", "Error: ", `{"error":{"code":-32603,"message":""}}`},
	} {
		t.Run(tc.c, func(t *testing.T) {
			res := wiretest.CallTool(t, cs, "render", map[string]any{"case": tc.c})
			if got := wiretest.Text(t, res); got != tc.text {
				t.Errorf("content[0].text:\n got %q\nwant %q", got, tc.text)
			}
			assertResult(t, res, `{"isError":true,"content":[{"type":"text","text":`+quote(tc.text)+`}],"structuredContent":`+tc.structured+`}`)
		})
	}
}

func TestRenderSuccess(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, renderTool)
	res := wiretest.CallTool(t, cs, "render", map[string]any{})
	// No isError key at all; content is the output as indented JSON.
	assertResult(t, res, `{
		"content":[{"type":"text","text":"{\n  \"items\": [\n    \"a\",\n    \"b\"\n  ],\n  \"total\": 2\n}"}],
		"structuredContent":{"items":["a","b"],"total":2}}`)
	if _, ok := resultJSON(t, res)["isError"]; ok {
		t.Error("a success result carries isError")
	}
}

// formatTool renders its output with a Format that fails in the way the
// first item names.
var formatTool = mcpcore.Tool[caseInput, itemsOutput]{
	Name: "formatted",
	Handler: func(_ *mcpcore.Context, in caseInput) (itemsOutput, error) {
		return itemsOutput{Items: []string{in.Case, "b"}, Total: 2}, nil
	},
	Format: func(out itemsOutput) ([]mcp.Content, error) {
		switch out.Items[0] {
		case "format_error":
			return nil, errors.New("formatter error")
		case "format_classified":
			return nil, errors.New("template not found")
		case "format_mcperr":
			return nil, mcperr.Conflict("busy", mcperr.WithData(map[string]any{"secret": "x"}))
		case "format_panic":
			panic("formatter exploded")
		}
		return []mcp.Content{
			&mcp.TextContent{Text: strings.Join(out.Items, ", ")},
			&mcp.TextContent{Text: fmt.Sprintf("**%d total**", out.Total)},
		}, nil
	},
}

func TestFormat(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, formatTool)

	res := wiretest.CallTool(t, cs, "formatted", map[string]any{"case": "a"})
	assertResult(t, res, `{"content":[{"type":"text","text":"a, b"},{"type":"text","text":"**2 total**"}],
		"structuredContent":{"items":["a","b"],"total":2}}`)

	for _, tc := range []struct {
		c       string
		code    mcperr.Code
		message string
	}{
		{"format_error", mcperr.CodeInternalError, "Output formatting failed: formatter error"},
		{"format_classified", mcperr.CodeNotFound, "Output formatting failed: template not found"},
		// A formatter's own *mcperr.Error is not the tool's: its code and
		// data are dropped and the message is classified.
		{"format_mcperr", mcperr.CodeOf(errors.New("Output formatting failed: busy")), "Output formatting failed: busy"},
		{"format_panic", mcperr.CodeInternalError, "An internal error occurred in tool formatted."},
	} {
		t.Run(tc.c, func(t *testing.T) {
			res := wiretest.CallTool(t, cs, "formatted", map[string]any{"case": tc.c})
			assertResult(t, res, fmt.Sprintf(`{"isError":true,"content":[{"type":"text","text":%s}],
				"structuredContent":{"error":{"code":%d,"message":%s}}}`, quote("Error: "+tc.message), tc.code, quote(tc.message)))
		})
	}
	if wire := logs.String(); !strings.Contains(wire, "formatter exploded") {
		t.Errorf("the formatter's panic is not logged:\n%s", wire)
	}
}

type searchInput struct {
	Name  string `json:"name" jsonschema:"what to search for"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results"`
}

func TestInputValidation(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	strict := mcpcore.Tool[searchInput, okOutput]{
		Name: "strict",
		Handler: func(*mcpcore.Context, searchInput) (okOutput, error) {
			calls.Add(1)
			return okOutput{OK: true}, nil
		},
	}
	cs, logs := connect(t, strict)

	type issue struct {
		path    string // the JSON of the path
		keyword string
	}
	for _, tc := range []struct {
		name    string
		args    any
		issues  []issue // in any order
		message string
	}{
		{"wrong type", map[string]any{"name": 123}, []issue{{`["name"]`, "type"}}, "at name: expected string, received number"},
		{"missing required", map[string]any{}, []issue{{`["name"]`, "required"}}, `missing required property "name"`},
		{"absent arguments are {}", nil, []issue{{`["name"]`, "required"}}, `missing required property "name"`},
		{"unknown top-level key", map[string]any{"name": "x", "limt": 5}, []issue{{`[]`, "additionalProperties"}}, `unrecognized key "limt"`},
		{"every issue reported", map[string]any{"name": 1, "limit": "ten"}, []issue{{`["limit"]`, "type"}, {`["name"]`, "type"}},
			"2 issues: at limit: expected integer, received string; at name: expected string, received number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := wiretest.CallTool(t, cs, "strict", tc.args)
			e := errorResult(t, res)
			if e["code"] != float64(mcperr.CodeValidationError) {
				t.Errorf("code = %v, want -32007", e["code"])
			}
			got, _ := dig(t, e, "data", "issues").([]any)
			var gotIssues []issue
			for i, g := range got {
				g := g.(map[string]any)
				gotIssues = append(gotIssues, issue{wiretest.Canonical(t, g["path"]), fmt.Sprint(g["keyword"])})
				if msg, _ := g["message"].(string); msg == "" {
					t.Errorf("issue %d has no message", i)
				}
			}
			slices.SortFunc(gotIssues, func(a, b issue) int { return strings.Compare(a.path+a.keyword, b.path+b.keyword) })
			if !slices.Equal(gotIssues, tc.issues) {
				t.Fatalf("issues = %s, want %v", wiretest.Canonical(t, got), tc.issues)
			}
			// The message lists every issue, located: a client that reads
			// only content[0].text learns them all.
			want := tc.message
			if e["message"] != want {
				t.Errorf("message = %q, want %q", e["message"], want)
			}
			if text := wiretest.Text(t, res); text != "Error: "+want {
				t.Errorf("text = %q, want %q", text, "Error: "+want)
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the handler ran %d times on invalid input", n)
	}
	if n := len(logs.Failures(t, "strict")); n != 5 {
		t.Errorf("%d failure records, want one per invalid call (5)", n)
	}
	res := wiretest.CallTool(t, cs, "strict", map[string]any{"name": "x"})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"ok":true}`)
	if n := calls.Load(); n != 1 {
		t.Errorf("handler calls = %d, want 1", n)
	}
}

func TestAbsentArgumentsAreAnEmptyObject(t *testing.T) {
	t.Parallel()
	optional := mcpcore.Tool[caseInput, okOutput]{
		Name:    "optional",
		Handler: func(_ *mcpcore.Context, in caseInput) (okOutput, error) { return okOutput{OK: in.Case == ""}, nil },
	}
	cs, _ := connect(t, optional)
	res := wiretest.CallTool(t, cs, "optional", nil)
	assertResult(t, res, `{"content":[{"type":"text","text":"{\n  \"ok\": true\n}"}],"structuredContent":{"ok":true}}`)
}

// lyingOutput's schema requires count, but it encodes as {}: the output
// fails its own schema.
type lyingOutput struct {
	Count int `json:"count" jsonschema:"how many"`
}

func (lyingOutput) MarshalJSON() ([]byte, error) { return []byte(`{}`), nil }

func TestOutputValidation(t *testing.T) {
	t.Parallel()
	liar := mcpcore.Tool[caseInput, lyingOutput]{
		Name:    "liar",
		Handler: func(*mcpcore.Context, caseInput) (lyingOutput, error) { return lyingOutput{Count: 1}, nil },
	}
	cs, _ := connect(t, liar)
	res := wiretest.CallTool(t, cs, "liar", map[string]any{})
	e := errorResult(t, res)
	msg, _ := e["message"].(string)
	if e["code"] != float64(mcperr.CodeValidationError) || !strings.HasPrefix(msg, "Tool output failed validation: ") {
		t.Errorf("error = %s, want -32007 with message `Tool output failed validation: …`", wiretest.Canonical(t, e))
	}
	issues, _ := dig(t, e, "data", "issues").([]any)
	if len(issues) != 1 {
		t.Fatalf("issues = %v, want 1", issues)
	}
	i := issues[0].(map[string]any)
	if wiretest.Canonical(t, i["path"]) != `["count"]` || i["keyword"] != "required" {
		t.Errorf("issue = %s, want path [count], keyword required", wiretest.Canonical(t, i))
	}
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, renderTool)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool"})
	if res != nil {
		t.Errorf("result = %v, want none", res)
	}
	if werr := rpcError(t, err); werr.Code != -32602 {
		t.Errorf("code = %d, want -32602", werr.Code)
	}
}

type panicInput struct {
	Mode string `json:"mode" jsonschema:"ok, nil, string or error"`
	N    int    `json:"n,omitempty" jsonschema:"echoed back"`
}

type nOutput struct {
	N int `json:"n" jsonschema:"the input's n"`
}

var panicky = mcpcore.Tool[panicInput, nOutput]{
	Name: "panicky",
	Handler: func(_ *mcpcore.Context, in panicInput) (nOutput, error) {
		switch in.Mode {
		case "nil":
			var p *nOutput
			return nOutput{N: p.N}, nil
		case "string":
			panic("kaboom-string")
		case "error":
			panic(errors.New("kaboom-error"))
		}
		return nOutput{N: in.N}, nil
	},
}

const panicResult = `{"isError":true,
	"content":[{"type":"text","text":"Error: An internal error occurred in tool panicky."}],
	"structuredContent":{"error":{"code":-32603,"message":"An internal error occurred in tool panicky."}}}`

func TestPanicsAreInternalErrors(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, panicky)
	for _, mode := range []struct{ mode, value string }{
		{"nil", "nil pointer dereference"},
		{"string", "kaboom-string"},
		{"error", "kaboom-error"},
	} {
		t.Run(mode.mode, func(t *testing.T) {
			res := wiretest.CallTool(t, cs, "panicky", map[string]any{"mode": mode.mode})
			assertResult(t, res, panicResult)
			wire := wiretest.Canonical(t, wiretest.JSON(t, res))
			for _, leak := range []string{mode.value, "goroutine", ".go:"} {
				if strings.Contains(wire, leak) {
					t.Errorf("the wire carries %q: %s", leak, wire)
				}
			}
			var rec map[string]any
			for _, r := range logs.Failures(t, "panicky") {
				if p, _ := r["panic"].(string); strings.Contains(p, mode.value) {
					rec = r
				}
			}
			if rec == nil {
				t.Fatalf("no failure record with the panic value %q:\n%s", mode.value, logs)
			}
			if stack, _ := rec["stack"].(string); !strings.Contains(stack, "goroutine") || !strings.Contains(stack, "dispatch_test.go") {
				t.Errorf("record has no stack of the handler: %v", rec["stack"])
			}
			if rec["level"] != "ERROR" || rec["code"] != float64(-32603) {
				t.Errorf("record level %v code %v, want ERROR -32603", rec["level"], rec["code"])
			}
		})
	}
	// The server survived.
	res := wiretest.CallTool(t, cs, "panicky", map[string]any{"mode": "ok", "n": 7})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"n":7}`)
}

func TestConcurrentPanicsAndSuccesses(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, panicky)
	const workers, perWorker = 8, 25
	modes := []string{"ok", "nil", "ok", "string", "ok", "error"}
	var wg sync.WaitGroup
	var panics atomic.Int64
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				n := w*perWorker + i
				mode := modes[n%len(modes)]
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
					Name: "panicky", Arguments: map[string]any{"mode": mode, "n": n},
				})
				if err != nil {
					t.Errorf("call %d: %v", n, err)
					continue
				}
				got := wiretest.Canonical(t, resultJSON(t, res))
				want := wiretest.Canonical(t, wiretest.Parse(t, fmt.Sprintf(`{"content":[{"type":"text","text":"{\n  \"n\": %d\n}"}],"structuredContent":{"n":%d}}`, n, n)))
				if mode != "ok" {
					panics.Add(1)
					want = wiretest.Canonical(t, wiretest.Parse(t, panicResult))
				}
				if got != want {
					t.Errorf("call %d (%s):\n got %s\nwant %s", n, mode, got, want)
				}
			}
		})
	}
	wg.Wait()
	if got, want := len(logs.Failures(t, "panicky")), int(panics.Load()); got != want {
		t.Errorf("%d failure records, want one per panic (%d)", got, want)
	}
	// The session still works.
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatalf("Ping after the storm: %v", err)
	}
	res := wiretest.CallTool(t, cs, "panicky", map[string]any{"mode": "ok", "n": 1000})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"n":1000}`)
}

// blockingTool waits for its context to end, reporting on started when it
// begins and on returned what its context said when it let go. It then
// returns ctx.Err(), or an unrelated error when the input asks for it.
func blockingTool(name string, started chan<- struct{}, returned chan<- error) mcpcore.Tool[caseInput, okOutput] {
	return mcpcore.Tool[caseInput, okOutput]{
		Name: name,
		Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
			started <- struct{}{}
			<-ctx.Done()
			returned <- ctx.Err()
			switch in.Case {
			case "unrelated":
				return okOutput{}, errors.New("upstream exploded")
			case "wrapped":
				// A service that turns every failure into an *mcperr.Error.
				return okOutput{}, mcperr.ServiceUnavailable("upstream failed", mcperr.WithCause(ctx.Err()))
			}
			return okOutput{}, ctx.Err()
		},
	}
}

func TestClientCancellation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, c, message string
	}{
		{"handler returns ctx.Err()", "", "context canceled"},
		{"handler returns an unrelated error", "unrelated", "The request was cancelled."},
		{"handler returns an *mcperr.Error", "wrapped", "The request was cancelled."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			started, returned := make(chan struct{}, 1), make(chan error, 1)
			cs, logs := connect(t, blockingTool("blocker", started, returned), renderTool)

			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "blocker", Arguments: map[string]any{"case": tc.c}})
				done <- err
			}()
			receive(t, "the handler to start", started)
			cancel()
			if err := receive(t, "CallTool to return", done); !errors.Is(err, context.Canceled) {
				t.Errorf("CallTool error = %v, want context.Canceled", err)
			}
			if err := receive(t, "the handler to return", returned); !errors.Is(err, context.Canceled) {
				t.Errorf("the handler's ctx.Err() = %v, want context.Canceled", err)
			}

			var recs []map[string]any
			mcptest.WaitFor(t, "the failure record", func() bool {
				recs = logs.Failures(t, "blocker")
				return len(recs) > 0
			})
			r := recs[0]
			if len(recs) != 1 || r["level"] != "INFO" || r["code"] != float64(mcperr.CodeRequestCancelled) || r["stack"] != nil ||
				r["msg"] != "Error in tool:blocker: "+tc.message {
				t.Errorf("records = %v, want one at INFO with code -32011, message %q and no stack", recs, tc.message)
			}
			// The session is unaffected.
			res := wiretest.CallTool(t, cs, "render", map[string]any{})
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"items":["a","b"],"total":2}`)
		})
	}
}

func TestHandlerDeadlineIsTimeout(t *testing.T) {
	t.Parallel()
	deadline := mcpcore.Tool[caseInput, okOutput]{
		Name: "deadline",
		Handler: func(ctx *mcpcore.Context, _ caseInput) (okOutput, error) {
			ctx2, cancel := context.WithTimeout(ctx, time.Millisecond)
			defer cancel()
			<-ctx2.Done()
			return okOutput{}, ctx2.Err()
		},
	}
	cs, logs := connect(t, deadline)
	res := wiretest.CallTool(t, cs, "deadline", map[string]any{})
	e := errorResult(t, res)
	if e["code"] != float64(mcperr.CodeTimeout) || e["data"] != nil {
		t.Errorf("error = %s, want code -32004 and no data", wiretest.Canonical(t, e))
	}
	recs := logs.Failures(t, "deadline")
	if len(recs) != 1 || recs[0]["level"] != "ERROR" {
		t.Errorf("records = %v, want one at ERROR", recs)
	}
}
