package mcpcore_test

// Every call gets exactly one well-formed answer, whatever its handler
// returns: typed nils, errors whose methods panic, data JSON cannot encode.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// nilDerefError's Error dereferences its receiver, as most error types do.
type nilDerefError struct{ msg string }

func (e *nilDerefError) Error() string { return e.msg }

// panickyError panics in every method errors and fmt may call.
type panickyError struct{}

func (panickyError) Error() string { panic("Error() exploded") }
func (panickyError) Unwrap() error { panic("Unwrap() exploded") }

// selfError unwraps to itself: errors.As would never return on it.
type selfError struct{}

func (*selfError) Error() string   { return "Item not found" }
func (e *selfError) Unwrap() error { return e }

// selfJoinError contains itself twice: a walk without bounds visits 2^depth
// errors.
type selfJoinError struct{}

func (*selfJoinError) Error() string     { return "not found" }
func (e *selfJoinError) Unwrap() []error { return []error{e, e} }

// secretPanicError's Error panics with a value that must never reach a
// client: fmt puts it in the text of any error that wraps it.
type secretPanicError struct{}

func (secretPanicError) Error() string { panic("SECRET-c0ffee1234") }

// badMarshaler fails, or panics, when encoded.
type badMarshaler struct{ panics bool }

func (m badMarshaler) MarshalJSON() ([]byte, error) {
	if m.panics {
		panic("MarshalJSON exploded")
	}
	return nil, errors.New("cannot encode")
}

// unencodable are data values JSON cannot carry, by name.
func unencodable() map[string]any {
	cycle := map[string]any{"name": "loop"}
	cycle["self"] = cycle
	list := []any{1, nil}
	list[1] = list
	return map[string]any{
		"nan":           math.NaN(),
		"inf":           math.Inf(1),
		"neginf":        math.Inf(-1),
		"func":          func() {},
		"chan":          make(chan int),
		"cycle":         cycle,
		"slice_cycle":   list,
		"marshal_error": badMarshaler{},
		"marshal_panic": badMarshaler{panics: true},
		"complex":       complex(1, 2),
	}
}

var faultyTool = mcpcore.Tool[caseInput, okOutput]{
	Name:   "faulty",
	Errors: []mcpcore.Failure{noMatch},
	Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
		switch in.Case {
		case "typed_nil":
			var e *mcperr.Error
			return okOutput{}, e
		case "typed_nil_custom":
			var e *nilDerefError
			return okOutput{}, e
		case "panicky_error":
			return okOutput{}, panickyError{}
		case "error_cycle":
			return okOutput{}, &selfError{}
		case "error_cycle_wrapped":
			return okOutput{}, fmt.Errorf("No item 9: %w", &selfError{})
		case "error_join_cycle":
			return okOutput{}, &selfJoinError{}
		case "wrapped_panic":
			return okOutput{}, fmt.Errorf("wrapped: %w", secretPanicError{})
		case "factory_panic_text":
			return okOutput{}, mcperr.ServiceUnavailable(fmt.Sprintf("upstream failed: %v", secretPanicError{}))
		case "nil_option":
			return okOutput{}, ctx.Fail(noMatch, "Declared, with a nil option", nil)
		}
		if bad, ok := unencodable()[in.Case]; ok {
			return okOutput{}, ctx.Fail(noMatch, "Bad data: "+in.Case, mcperr.WithData(map[string]any{
				"kept":   "yes",
				"bad":    bad,
				"nested": map[string]any{"kept": 1, "bad": bad},
				"list":   []any{"kept", bad},
			}))
		}
		return okOutput{OK: true}, nil
	},
}

// callWithin calls a tool and fails the test if no answer comes in time: a
// call the server cannot answer hangs the client until its own timeout.
func callWithin(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", name, args, err)
	}
	return res
}

func TestHandlerBugsAreInternalErrors(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, faultyTool)
	const internal = `{"content":[{"type":"text","text":"Error: An internal error occurred in tool faulty."}],"isError":true,
		"structuredContent":{"error":{"code":-32603,"message":"An internal error occurred in tool faulty."}}}`
	for _, c := range []string{"typed_nil", "typed_nil_custom"} {
		res := callWithin(t, cs, "faulty", map[string]any{"case": c})
		wiretest.AssertJSON(t, c, resultJSON(t, res), internal)
	}
	// An error whose Error and Unwrap panic still gets an answer.
	res := callWithin(t, cs, "faulty", map[string]any{"case": "panicky_error"})
	if !res.IsError {
		t.Errorf("panicky_error: not an error result")
	}
	if e := structuredError(t, res); e["code"] != float64(mcperr.CodeInternalError) {
		t.Errorf("panicky_error: code %v, want InternalError", e["code"])
	}
	// The server is still serving.
	wiretest.AssertJSON(t, "after", callWithin(t, cs, "faulty", map[string]any{}).StructuredContent, `{"ok":true}`)

	recs := logs.Failures(t, "faulty")
	if len(recs) < 3 {
		t.Fatalf("%d failure records, want one per failed call:\n%s", len(recs), logs)
	}
	for _, r := range recs[:2] {
		if r["level"] != "ERROR" || !strings.Contains(r["bug"].(string), "returned a nil") {
			t.Errorf("typed nil record: %v", r)
		}
	}
}

// An error whose tree has no end, and one whose text holds a panic's value,
// are answered at once with the generic InternalError; the panic's value
// stays out of both client surfaces.
func TestUnwalkableErrorsAreInternalErrors(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, faultyTool)
	const internal = `{"content":[{"type":"text","text":"Error: An internal error occurred in tool faulty."}],"isError":true,
		"structuredContent":{"error":{"code":-32603,"message":"An internal error occurred in tool faulty."}}}`
	for _, c := range []string{"error_cycle", "error_cycle_wrapped", "error_join_cycle", "wrapped_panic"} {
		res := callWithin(t, cs, "faulty", map[string]any{"case": c})
		wiretest.AssertJSON(t, c, resultJSON(t, res), internal)
	}
	// A factory's message that fmt filled with a panic's value keeps its
	// code, but not the text.
	res := callWithin(t, cs, "faulty", map[string]any{"case": "factory_panic_text"})
	if b, _ := json.Marshal(res); strings.Contains(string(b), "SECRET") || strings.Contains(string(b), "PANIC") {
		t.Errorf("factory_panic_text: the panic's value reached the client: %s", b)
	}
	if e := structuredError(t, res); e["code"] != float64(mcperr.CodeServiceUnavailable) {
		t.Errorf("factory_panic_text: code %v, want ServiceUnavailable", e["code"])
	}
	// The operator still learns what the cycle was.
	found := false
	for _, r := range logs.Failures(t, "faulty") {
		if bug, _ := r["original"].(string); r["originalType"] == "*mcpcore_test.selfError" {
			found = found || bug == "Item not found"
		}
	}
	if !found {
		t.Errorf("no failure record names the cyclic error:\n%s", logs)
	}
}

func TestNilOptionIsIgnored(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, faultyTool)
	res := callWithin(t, cs, "faulty", map[string]any{"case": "nil_option"})
	wiretest.AssertJSON(t, "result", res.StructuredContent,
		`{"error":{"code":-32001,"message":"Declared, with a nil option","data":{"reason":"no_match"}}}`)
}

// structuredError returns structuredContent.error of a result.
func structuredError(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	m, _ := wiretest.JSON(t, res.StructuredContent).(map[string]any)
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("structuredContent has no error: %v", m)
	}
	return e
}

func TestUnencodableDataIsDropped(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, faultyTool)
	for kind := range unencodable() {
		t.Run(kind, func(t *testing.T) {
			res := callWithin(t, cs, "faulty", map[string]any{"case": kind})
			// Everything that could be encoded arrives; what could not is
			// dropped (an element of a list becomes null). A cycle is cut
			// where it closes.
			data, bad, paths := `{"kept":"yes","nested":{"kept":1},"list":["kept",null],"reason":"no_match"}`, "", []string{"data.bad", "data.list[1]", "data.nested.bad"}
			switch kind {
			case "cycle":
				bad = `{"name":"loop"}`
				for i := range paths {
					paths[i] += ".self"
				}
			case "slice_cycle":
				bad = `[1,null]`
				for i := range paths {
					paths[i] += "[1]"
				}
			}
			if bad != "" {
				data = `{"kept":"yes","bad":` + bad + `,"nested":{"kept":1,"bad":` + bad + `},"list":["kept",` + bad + `],"reason":"no_match"}`
			}
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"error":{"code":-32001,
				"message":"Bad data: `+kind+`","data":`+data+`}}`)
			if got := wiretest.Text(t, res); got != "Error: Bad data: "+kind {
				t.Errorf("text = %q", got)
			}
			var rec map[string]any
			for _, r := range logs.Failures(t, "faulty") {
				if r["msg"] == "Error in tool:faulty: Bad data: "+kind {
					rec = r
				}
			}
			if rec == nil {
				t.Fatalf("no failure record:\n%s", logs)
			}
			dropped, _ := rec["unencodableData"].([]any)
			joined := wiretest.Canonical(t, dropped)
			for _, path := range paths {
				if !strings.Contains(joined, `"`+path+`: `) {
					t.Errorf("unencodableData %s does not name %s", joined, path)
				}
			}
		})
	}
}

func TestResourceAndPromptBugsAreAnswered(t *testing.T) {
	t.Parallel()
	res := mcpcore.Resource[idParams, string]{
		Name:        "broken",
		URITemplate: "test://broken/{id}",
		Handler: func(_ *mcpcore.Context, p idParams) (string, error) {
			switch p.ID {
			case "typed_nil":
				var e *mcperr.Error
				return "", e
			case "nan":
				return "", mcperr.NotFound("no "+p.ID, mcperr.WithData(map[string]any{"score": math.NaN(), "id": p.ID}))
			}
			return "", panickyError{}
		},
	}
	prompt := mcpcore.Prompt[briefArgs]{
		Name: "broken",
		Handler: func(*mcpcore.Context, briefArgs) ([]*mcp.PromptMessage, error) {
			var e *nilDerefError
			return nil, e
		},
	}
	cs, _ := connect(t, res, prompt)
	for _, tc := range []struct {
		uri  string
		code int64
		data string
	}{
		{"test://broken/typed_nil", int64(mcperr.CodeInternalError), ""},
		{"test://broken/nan", int64(mcperr.CodeNotFound), `{"id":"nan"}`},
		{"test://broken/panicky", int64(mcperr.CodeInternalError), ""},
	} {
		_, err := readResource(t, cs, tc.uri)
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != tc.code || string(werr.Data) != tc.data {
			t.Errorf("%s: err = %#v, want code %d data %s", tc.uri, err, tc.code, tc.data)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "broken", Arguments: map[string]string{"topic": "x"}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != int64(mcperr.CodeInternalError) || werr.Message != "An internal error occurred in prompt broken." {
		t.Errorf("prompt: err = %#v, want the generic InternalError", err)
	}
}

// TestValidationWorkIsBounded sends the request that once got an 88 MB
// answer: a huge array of mistyped elements. The answer lists at most 100
// issues and says how many more there are at least.
func TestValidationWorkIsBounded(t *testing.T) {
	t.Parallel()
	type in struct {
		IDs []string `json:"ids" jsonschema:"the IDs to fetch"`
	}
	fetch := mcpcore.Tool[in, okOutput]{
		Name:    "fetch",
		Handler: func(*mcpcore.Context, in) (okOutput, error) { return okOutput{OK: true}, nil },
	}
	cs, _ := connect(t, fetch)
	ids := make([]int, 200_000)
	for i := range ids {
		ids[i] = i
	}
	res := callWithin(t, cs, "fetch", map[string]any{"ids": ids})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 64<<10 {
		t.Errorf("answer is %d bytes, want a bounded answer", len(b))
	}
	e := structuredError(t, res)
	data, _ := e["data"].(map[string]any)
	issues, _ := data["issues"].([]any)
	omitted, _ := data["issuesOmitted"].(float64)
	if e["code"] != float64(mcperr.CodeValidationError) || len(issues) != 100 || data["issuesOmitted"] == nil || data["validationStopped"] != true {
		t.Errorf("code %v, %d issues, issuesOmitted %v, validationStopped %v; want ValidationError, 100, a count, true",
			e["code"], len(issues), data["issuesOmitted"], data["validationStopped"])
	}
	want := fmt.Sprintf("%d or more issues: ", len(issues)+int(omitted))
	for i := range 10 {
		want += fmt.Sprintf("at ids[%d]: expected string, received number; ", i)
	}
	want += fmt.Sprintf("and %d or more", len(issues)+int(omitted)-10)
	if msg := e["message"].(string); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
}
