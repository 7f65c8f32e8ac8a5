package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// callTimeout bounds a fuzzed call: a call the server never answers is a
// finding, not a hung fuzzer.
const callTimeout = 10 * time.Second

// servers are the logs of the servers built by NewServer, for FuzzTool.
var servers sync.Map // *mcpcore.Server → *Logs

// NewServer builds a server for defs as [Start] does, without connecting
// a client: for [FuzzTool], which reads its log records to check what only
// the server knows (that a failure was classified from a plain error).
// Its records are kept (the latest 1 MiB), not shown in the test's log,
// since a fuzz target may not log. A definition the server refuses fails
// the test.
func NewServer(t testing.TB, info mcpcore.Info, defs ...mcpcore.Definition) *mcpcore.Server {
	t.Helper()
	logs := &Logs{t: t, closed: true, limit: 1 << 20}
	srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{
		Logger: logs.logger(), RepeatWindow: -1,
	}, defs...)
	if err != nil {
		t.Fatalf("mcptest: NewServer: %v", err)
	}
	servers.Store(srv, logs)
	return srv
}

// FuzzTool fuzzes one tool of srv: it seeds f with argument objects made
// from the tool's input schema (valid shapes, each property's values and
// defaults, missing and mistyped properties, unknown keys) and with raw
// bytes that are not an object at all, then calls the tool with every
// input `go test -fuzz` makes, through a client in memory. On every call
// it checks the framework's promises:
//   - nothing escapes: the call is answered, and the server answers the
//     next one;
//   - no JSON-RPC error but the protocol's own for a tool: InvalidParams
//     (arguments that are not an object) and MissingClientCapability;
//   - every failure is a well-formed error result: a known code, a
//     message, and a text that says the same as structuredContent.error;
//   - a failure classified from a plain Go error, or from a panic, carries
//     no data (checked when srv comes from [NewServer]);
//   - the result, success or failure, validates against the tool's
//     advertised outputSchema.
//
// Call it from a Fuzz function:
//
//	func FuzzFetchArticles(f *testing.F) {
//		mcptest.FuzzTool(f, mcptest.NewServer(f, info, definitions()...), "fetch_articles")
//	}
func FuzzTool(f *testing.F, srv *mcpcore.Server, tool string) {
	f.Helper()
	FuzzToolWith(f, srv, tool, nil)
}

// FuzzToolWith is [FuzzTool] with a client of opts (its capabilities and
// the handlers with which it answers sampling and elicitation), so that the
// fuzzer reaches what a tool does after asking the client.
func FuzzToolWith(f *testing.F, srv *mcpcore.Server, tool string, opts *mcp.ClientOptions) {
	f.Helper()
	ctx := context.Background()
	cs, closeSession, err := connect(srv, "mcptest-fuzz", opts, "", false, true)
	if err != nil {
		f.Fatalf("mcptest: connecting a client: %v", err)
	}
	f.Cleanup(closeSession)
	def, err := findTool(ctx, cs, tool)
	if err != nil {
		f.Fatalf("mcptest: %v", err)
	}
	output, err := outputValidator(def)
	if err != nil {
		f.Fatalf("mcptest: tool %s: outputSchema: %v", tool, err)
	}
	for _, seed := range seeds(def.InputSchema) {
		f.Add(seed)
	}
	z := &toolFuzz{ctx: ctx, cs: cs, tool: tool, output: output}
	logs, _ := servers.Load(srv)
	z.logs, _ = logs.(*Logs)
	f.Fuzz(z.call)
}

// findTool returns the definition of the tool the server of cs lists as
// name.
func findTool(ctx context.Context, cs *mcp.ClientSession, name string) (*mcp.Tool, error) {
	var def *mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list: %v", err)
		}
		if t.Name == name {
			def = t
		}
	}
	if def == nil {
		return nil, fmt.Errorf("the server has no tool %q", name)
	}
	return def, nil
}

// A toolFuzz calls one tool with each input of the fuzzer, and checks the
// answer as [FuzzTool] says.
type toolFuzz struct {
	ctx    context.Context
	cs     *mcp.ClientSession
	tool   string
	output *schema.Validator // nil when the tool advertises no outputSchema
	logs   *Logs             // nil when the server does not come from NewServer
}

// call is the fuzz function: it calls the tool with data as its
// arguments.
func (z *toolFuzz) call(t *testing.T, data []byte) {
	if z.logs != nil {
		z.logs.reset() // the check below reads this call's records only
	}
	var args any = json.RawMessage(data)
	if !json.Valid(data) {
		args = map[string]any{"raw": string(data)} // the client can only send JSON
	}
	callCtx, cancel := context.WithTimeout(z.ctx, callTimeout)
	defer cancel()
	res, err := z.cs.CallTool(callCtx, &mcp.CallToolParams{Name: z.tool, Arguments: args})
	if err == nil {
		res, err = mcpclient.AwaitTask(callCtx, z.cs, z.tool, res)
	}
	if callCtx.Err() != nil {
		t.Fatalf("tools/call %s with %s: no answer within %v", z.tool, data, callTimeout)
	}
	if err != nil {
		if protocolRefusal(err) {
			return
		}
		t.Fatalf("tools/call %s with %s: %v (the server must answer with a result)", z.tool, data, err)
	}
	z.check(t, res, data)
}

// protocolRefusal reports whether err is one of the JSON-RPC errors the
// protocol itself gives for a tool: InvalidParams (arguments that are not
// an object) and MissingClientCapability.
func protocolRefusal(err error) bool {
	rpc, ok := errchain.As[*jsonrpc.Error](err)
	return ok && (rpc.Code == jsonrpc.CodeInvalidParams || rpc.Code == int64(mcperr.CodeMissingClientCapability))
}

// check checks the result of the call with data: a failure is well formed
// and, from a plain error or a panic, carries no data; the result
// validates against the tool's outputSchema.
func (z *toolFuzz) check(t *testing.T, res *mcp.CallToolResult, data []byte) {
	if res.IsError {
		checkFailure(t, res, data)
		if z.logs != nil {
			checkClassified(t, z.logs, z.tool, res, data)
		}
	}
	if z.output != nil && res.StructuredContent != nil {
		if r := z.output.Check(jsonValue(res.StructuredContent)); !r.Valid() {
			t.Fatalf("tools/call %s with %s: structuredContent does not validate against the advertised outputSchema: %s\nresult: %s",
				z.tool, data, r.Summary(), mustJSON(res))
		}
	}
}

// checkFailure checks that an error result is well formed.
func checkFailure(t *testing.T, res *mcp.CallToolResult, input []byte) {
	t.Helper()
	e := mcpclient.ErrorOf(res)
	sc, _ := jsonValue(res.StructuredContent).(map[string]any)
	wire, _ := sc["error"].(map[string]any)
	switch {
	case wire == nil:
		t.Fatalf("input %s: an error result without structuredContent.error: %s", input, mustJSON(res))
	case e == nil || !e.Code().Known():
		t.Fatalf("input %s: an error result with an unknown code: %s", input, mustJSON(res))
	case e.Message() == "":
		t.Fatalf("input %s: an error result without a message: %s", input, mustJSON(res))
	}
	want := contract.Text(e.Message(), e.RecoveryHint())
	if len(res.Content) == 0 {
		t.Fatalf("input %s: an error result without content: %s", input, mustJSON(res))
	}
	if text, _ := res.Content[0].(*mcp.TextContent); text == nil || text.Text != want {
		t.Fatalf("input %s: content[0].text does not render structuredContent.error (want %q): %s", input, want, mustJSON(res))
	}
}

// checkClassified checks, from the server's record of the failure, that a
// failure classified from a plain error or a panic carries no data.
func checkClassified(t *testing.T, logs *Logs, tool string, res *mcp.CallToolResult, input []byte) {
	t.Helper()
	for _, rec := range logs.Find("Error in tool:" + tool + ":") {
		_, classified := rec["originalType"]
		_, panicked := rec["panic"]
		if (classified || panicked) && len(mcpclient.ErrorOf(res).Data()) > 0 {
			t.Fatalf("input %s: a failure classified from a plain error or a panic carries data: %s", input, mustJSON(res))
		}
	}
}

// outputValidator compiles a tool's advertised outputSchema (nil when it
// has none).
func outputValidator(def *mcp.Tool) (*schema.Validator, error) {
	if def.OutputSchema == nil {
		return nil, nil
	}
	b, err := json.Marshal(def.OutputSchema)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return schema.NewValidator(&s)
}

// seeds are argument objects made from an input schema, and raw inputs
// that are not objects.
func seeds(inputSchema any) [][]byte {
	s, _ := jsonValue(inputSchema).(map[string]any)
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	var out []map[string]any
	full, minimal := map[string]any{}, map[string]any{}
	names := slices.Sorted(maps.Keys(props))
	for _, name := range names {
		p, _ := props[name].(map[string]any)
		samples := samplesOf(p)
		full[name] = samples[0]
		if required[name] {
			minimal[name] = samples[0]
		}
		for _, v := range samples[1:] {
			o := maps.Clone(full)
			o[name] = v
			out = append(out, o)
		}
	}
	out = append(out, full, minimal, map[string]any{})
	for _, name := range names {
		without := maps.Clone(full)
		delete(without, name)
		out = append(out, without)
	}
	extra := maps.Clone(full)
	extra["mcptest_unknown"] = true
	out = append(out, extra)
	var seeds [][]byte
	for _, o := range out {
		b, _ := json.Marshal(o)
		seeds = append(seeds, b)
	}
	for _, raw := range []string{"null", "[]", `"text"`, "42", "{", "", `{"a":`, strings.Repeat("[", 64)} {
		seeds = append(seeds, []byte(raw))
	}
	return seeds
}

// samplesOf returns values for a property: a plausible one first, then
// edge cases and values of other types.
func samplesOf(p map[string]any) []any {
	var out []any
	if d, ok := p["default"]; ok {
		out = append(out, d)
	}
	if enum, ok := p["enum"].([]any); ok {
		out = append(out, enum...)
	}
	for _, t := range typesOf(p) {
		out = append(out, samplesOfType(t, p)...)
	}
	// Values of the wrong type.
	return append(out, nil, 7, "seven", true, []any{1}, map[string]any{"x": 1})
}

// typesOf returns the types a property's schema names: its "type", a
// string or a list of them.
func typesOf(p map[string]any) []string {
	switch t := p["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var types []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
		return types
	}
	return nil
}

// samplesOfType returns values of the JSON type t for the property p: a
// plausible one first, then edge cases.
func samplesOfType(t string, p map[string]any) []any {
	switch t {
	case "string":
		return []any{"a", "", strings.Repeat("x", 300), "line\nbreak\x00", "../../etc/passwd"}
	case "integer":
		return []any{1, 0, -1, 1 << 53, 1.5}
	case "number":
		return []any{1.5, 0, -1, 1e308}
	case "boolean":
		return []any{true, false}
	case "array":
		item := any("a")
		if items, ok := p["items"].(map[string]any); ok {
			item = samplesOf(items)[0]
		}
		return []any{[]any{item}, []any{}, []any{item, item, nil}}
	case "object":
		return []any{map[string]any{}, map[string]any{"k": "v"}}
	case "null":
		return []any{nil}
	}
	return nil
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
