package mcpcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Tool defines an MCP tool with typed input and output and a declared error
// contract. In and Out are structs; their JSON schemas are inferred from
// their fields, with descriptions from `jsonschema:"..."` struct tags.
//
// The constraints of In's fields, at any depth, are struct tags named as the
// JSON Schema keyword they set, published in tools/list and enforced before
// the handler runs (every broken one an issue of the ValidationError):
// `default`, `enum` (with `enumTitles` or `enumNames`), minLength,
// maxLength, pattern, format (email, uri, date, date-time, uuid), minimum,
// maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems,
// maxItems, uniqueItems, minProperties and maxProperties:
//
//	type SearchInput struct {
//		Query string   `json:"query" minLength:"1" maxLength:"200"`
//		Limit int      `json:"limit,omitempty" minimum:"1" maximum:"100" default:"10"`
//		Tags  []string `json:"tags,omitempty" maxItems:"5" pattern:"^[a-z-]+$"`
//	}
//
// A string or number keyword on a slice or map field constrains its
// elements (pattern on Tags above checks each tag; maxItems the list). A tag
// that does not parse or does not fit its field stops [NewServer] with an
// error naming the type, the field and the tag. A string or number
// keyword's issue message can be replaced by a tag named after it, such as
// `patternMessage:"PMID must be numeric (e.g. 13054692)."`; an input type's
// Validate method checks what no keyword can (see [InputIssues]).
//
// Declare a tool as a package-level composite literal next to its failures
// and its handler, so that a reader (and mcplint) sees the whole surface in
// one place:
//
//	var FetchArticles = mcpcore.Tool[FetchInput, FetchOutput]{
//		Name:        "fetch_articles",
//		Description: "Fetch articles by PMID.",
//		Errors:      []mcpcore.Failure{noMatch, queueFull},
//		Handler:     fetchArticles,
//	}
//
// The handler returns its output or any error; it needs no recover and no
// wrapping. Whatever it returns or panics with is rendered by the framework
// as an error result whose text and structured error agree (see the
// package documentation).
type Tool[In, Out any] struct {
	// Name is the tool's unique name, the one clients call.
	Name string
	// Title is an optional human-readable display name.
	Title string
	// Description tells the model what the tool does.
	Description string
	// Annotations are optional hints about the tool's behaviour.
	Annotations *mcp.ToolAnnotations
	// InputSchema, when set, is the tool's input schema as written by hand
	// (a JSON Schema 2020-12 object schema), published verbatim in
	// tools/list and used to validate the arguments instead of the schema
	// inferred from In. Use it for what struct tags cannot say ($defs,
	// allOf, if/then/else); In must still decode every valid argument
	// object (map[string]any always does). So that validation stays
	// bounded, NewServer refuses a schema that loops on itself or uses
	// patternProperties, propertyNames, contains or dependentSchemas.
	InputSchema json.RawMessage
	// Errors is the tool's error contract: every failure mode it declares.
	// It is checked when the server starts and published in tools/list.
	Errors []Failure
	// Meta is published as the tool's _meta in tools/list, beside
	// mcpcore's own keys (under "mcpcore/", which it may not use: NewServer
	// refuses such a key, an empty one, and a value that does not encode
	// as JSON). Use a prefix of your own, such as "io.mcpmed/concepts".
	Meta map[string]any
	// Scopes are the OAuth scopes a caller's token must hold to call the
	// tool, checked before the handler runs; a call without them fails
	// with Forbidden (-32005), data.missingScopes listing them. Calls
	// without a token (stdio, MCP_AUTH_MODE=none) are not checked. See
	// [Context.RequireScopes] for scopes that depend on the input.
	Scopes []string
	// RateLimit is the tool's quota of calls for each caller; zero means
	// the server's (Config.RateLimit, MCP_RATE_LIMIT), if any. A call over
	// it fails with RateLimited (-32003) before the handler runs. Each
	// round of a call that asks the client questions runs the handler, and
	// counts.
	RateLimit RateLimit
	// Handler does the work.
	Handler func(ctx *Context, in In) (Out, error)
	// Task says whether the tool's calls may outlive their request as
	// tasks, which the client polls (see [TaskSupport]); the zero value
	// never runs one. The handler is the same either way.
	Task TaskSupport
	// Format renders the content[] blocks of a successful result from the
	// output. When nil, content is the output as indented JSON text. An error
	// (or panic) in Format fails the call like a handler error.
	Format func(out Out) ([]mcp.Content, error)
	// Disabled, when set, declares the tool one the server has but does
	// not serve, with why and what would bring it back (see [Disabled]).
	Disabled *Disabled
}

// register infers the tool's schemas, checks its definition and contract, and
// adds it to s.
func (t Tool[In, Out]) register(s *Server) error {
	if err := checkDefinition("tool", t.Name, t.Handler != nil, t.Scopes, t.Errors); err != nil {
		return err
	}
	if err := t.Disabled.check("tool", t.Name); err != nil {
		return err
	}
	if err := t.Task.check(); err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	limit, err := s.rateLimitOf("tool", t.Name, t.RateLimit)
	if err != nil {
		return err
	}
	// The closures below run this copy's Handler: the interceptors' chain.
	handler, err := intercepted(s, "tool", t.Name, t.Handler)
	if err != nil {
		return err
	}
	t.Handler = handler
	if err := s.claim("tool", t.Name, t.Scopes); err != nil {
		return err
	}
	in, published, err := t.inputSchema()
	if err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	out, err := schema.Output(reflect.TypeFor[Out]())
	if err != nil {
		return fmt.Errorf("tool %q: output type: %w", t.Name, err)
	}
	// Union types travel in a form of their own (see schema.Unions).
	inU, err := schema.UnionsOf(reflect.TypeFor[In]())
	if err != nil {
		return fmt.Errorf("tool %q: input type: %w", t.Name, err)
	}
	outU, err := schema.UnionsOf(reflect.TypeFor[Out]())
	if err != nil {
		return fmt.Errorf("tool %q: output type: %w", t.Name, err)
	}
	codec := toolCodec{in: inU, out: outU}
	inV, err := schema.NewValidator(in)
	if err != nil {
		return fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	// What a client sends must cost bounded work, and fail only for its
	// own faults.
	if err := boundedInput(inV); err != nil {
		return fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	if t.InputSchema != nil {
		if err := inV.Loops(); err != nil {
			return fmt.Errorf("tool %q: InputSchema: %w", t.Name, err)
		}
	}
	// An output whose schema was inferred from the very type that encodes
	// it cannot fail it: it is validated only where it can (see
	// schema.OutputGuaranteed).
	var outV *schema.Validator
	if !schema.OutputGuaranteed(reflect.TypeFor[Out](), out) {
		if outV, err = schema.NewValidator(out); err != nil {
			return fmt.Errorf("tool %q: output schema: %w", t.Name, err)
		}
	}
	// The SDK keeps what it publishes for the life of the server: as bytes,
	// which the garbage collector does not scan, rather than as the
	// pointer-rich *jsonschema.Schema trees, which it would scan on every
	// cycle of every call.
	inJSON, err := json.Marshal(published)
	if err != nil {
		return fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	outJSON, err := json.Marshal(schema.Envelope(out, schemaReasons(t.Errors)))
	if err != nil {
		return fmt.Errorf("tool %q: output schema: %w", t.Name, err)
	}
	if bytes.Contains(inJSON, []byte(`"x-mcp-header"`)) {
		if s.headerTools == nil {
			s.headerTools = map[string]bool{}
		}
		s.headerTools[t.Name] = true
	}
	def := &mcp.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		Annotations:  t.Annotations,
		InputSchema:  json.RawMessage(inJSON),
		OutputSchema: json.RawMessage(outJSON),
	}
	if len(t.Errors) > 0 {
		def.Meta = mcp.Meta{contract.MetaKey: contract.Publish(t.Errors)}
	}
	if t.Task.Mode != TaskNever {
		if def.Meta == nil {
			def.Meta = mcp.Meta{}
		}
		def.Meta[taskMetaKey] = t.Task.Mode.String()
	}
	if def.Meta, err = publishedMeta("tool", t.Name, def.Meta, t.Meta); err != nil {
		return err
	}
	rt := &toolRuntime{
		definition: definition{kind: "tool", name: t.Name, contract: t.Errors, scopes: t.Scopes, limit: limit},
		output:     outV,
		run: func(c *Context, raw json.RawMessage) (*toolOutput, error) {
			return t.run(c, inV, codec, raw)
		},
		task: t.Task.resolved(s.cfg),
	}
	if t.Task.Mode != TaskNever {
		rt.start = func(c *Context, raw json.RawMessage) (func() (*toolOutput, error), error) {
			in, err := decodeArgs[In](c.parent(), inV, codec.in, raw)
			if err != nil {
				return nil, err
			}
			return func() (*toolOutput, error) { return t.call(c, in, codec.out) }, nil
		}
	}
	// Every failure, whatever its kind, becomes an error result, so the
	// model always sees what went wrong; but for the two that MCP defines
	// as protocol errors (see protocolError), which are JSON-RPC errors.
	info := &DefinitionInfo{Kind: KindTool, Name: t.Name, Scopes: t.Scopes}
	sdkHandler := shownTo(s, info, unknownTool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p := req.Params
		var tc *taskCall
		if rt.task.Mode != TaskNever {
			ctx, tc = s.newTaskCall(ctx, rt.task, req.ProtocolVersion(), p.GetMeta())
		}
		c := newCall(s, ctx, &rt.definition, req)
		if tc != nil {
			c.task, c.ctx.task = tc, tc
			if tc.capable {
				c.linkRequest()
			}
		}
		c.ctx.x = newExchange(c.version, p.GetProgressToken(), req.ClientCapabilities, p.InputResponses)
		c.inputBytes, c.state = len(p.Arguments), p.RequestState
		c.bind = func() string { return binding("tool", t.Name, c.ctx.token, p.Arguments) }
		return serve(s, c, toolCall{s, rt, p.Arguments})
	})
	s.offer(info, t.Disabled, func() { s.mcp.AddTool(def, sdkHandler) }, func() { s.mcp.RemoveTools(t.Name) })
	s.tools++
	s.listed = append(s.listed, listing{tool: def, contract: t.Errors, scopes: t.Scopes})
	return nil
}

// inputSchema returns the schema that validates the tool's arguments, and
// the one published: the hand-written InputSchema as it is, or the schema
// inferred from In.
func (t Tool[In, Out]) inputSchema() (*jsonschema.Schema, any, error) {
	if t.InputSchema == nil {
		in, err := schema.Input(reflect.TypeFor[In]())
		if err != nil {
			return nil, nil, fmt.Errorf("input type: %w", err)
		}
		return in, in, nil
	}
	var in jsonschema.Schema
	if err := json.Unmarshal(t.InputSchema, &in); err != nil {
		return nil, nil, fmt.Errorf("InputSchema: %w", err)
	}
	if in.Type != "object" {
		return nil, nil, fmt.Errorf("InputSchema: the type of a tool's input schema must be \"object\", not %q", in.Type)
	}
	return &in, t.InputSchema, nil
}

// run validates and decodes the arguments, calls the handler and encodes its
// output. Panics are recovered by the caller.
func (t Tool[In, Out]) run(c *Context, input *schema.Validator, codec toolCodec, raw json.RawMessage) (*toolOutput, error) {
	in, err := decodeArgs[In](c.parent(), input, codec.in, raw)
	if err != nil {
		return nil, err
	}
	return t.call(c, in, codec.out)
}

// toolCodec converts the union types of a tool's input and output (nil
// for a type that holds none).
type toolCodec struct {
	in, out *schema.Unions
}

// call calls the handler with decoded arguments and encodes its output,
// its unions in their wire form (outU, nil when it holds none).
func (t Tool[In, Out]) call(c *Context, in In, outU *schema.Unions) (*toolOutput, error) {
	out, err := t.Handler(c, in)
	if err != nil {
		return nil, err
	}
	structured, err := json.Marshal(out)
	if err == nil {
		structured, err = outU.ToWire(structured)
	}
	if err != nil {
		return nil, fmt.Errorf("encoding the output of tool %q: %w", t.Name, err)
	}
	return &toolOutput{
		structured: structured,
		format: func() ([]mcp.Content, error) {
			if t.Format != nil {
				return t.Format(out)
			}
			var text bytes.Buffer
			if err := json.Indent(&text, structured, "", "  "); err != nil {
				return nil, err
			}
			return []mcp.Content{&mcp.TextContent{Text: text.String()}}, nil
		},
	}, nil
}

// toolOutput is a handler's result, encoded, with the renderer of its
// content[] deferred until the output has been validated.
type toolOutput struct {
	structured json.RawMessage
	format     func() ([]mcp.Content, error)
}

// toolRuntime is what the dispatch needs of a tool, free of its type
// parameters.
type toolRuntime struct {
	definition
	output *schema.Validator // nil when the output cannot fail its schema
	run    func(c *Context, raw json.RawMessage) (*toolOutput, error)
	// task is the tool's TaskSupport, resolved; start, set when its Mode
	// is not TaskNever, decodes and validates the arguments and returns
	// the handler's run, so that a task starts only for valid arguments.
	task  TaskSupport
	start func(c *Context, raw json.RawMessage) (func() (*toolOutput, error), error)
}

// toolCall is a tools/call in the dispatch.
type toolCall struct {
	s    *Server
	rt   *toolRuntime
	args json.RawMessage
}

func (toolCall) size(res *mcp.CallToolResult) int {
	return len(res.StructuredContent.(json.RawMessage))
}

func (toolCall) ask(questions mcp.InputRequestMap, state string) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: questions, RequestState: state}
}

func (toolCall) fail(f *wireError) (*mcp.CallToolResult, error) {
	if protocolError(f.err) {
		return nil, f.rpcError()
	}
	return f.toolResult(), nil
}

// run produces a call's result, or whatever it failed with. Panics are
// recovered by the caller.
func (t toolCall) run(c *callState) (*mcp.CallToolResult, error) {
	if c.task != nil && c.task.capable {
		return t.runTask(c)
	}
	out, err := t.rt.run(c.ctx, t.args)
	if err != nil {
		return nil, err
	}
	return t.result(out)
}

// result bounds, validates and renders a handler's output.
func (t toolCall) result(out *toolOutput) (*mcp.CallToolResult, error) {
	s, rt := t.s, t.rt
	// An answer whose structured part alone is over the bound is refused
	// before its text is rendered: that would double what it holds.
	if err := s.tooLarge("result of tool "+rt.name, len(out.structured)); err != nil {
		return nil, err
	}
	if rt.output != nil {
		if res := rt.output.Check(out.structured); !res.Valid() {
			return nil, mcperr.ValidationError("Tool output failed validation: "+res.Summary(), mcperr.WithData(issuesData(res)))
		}
	}
	content, err := out.format()
	if err != nil {
		// A formatter's failure is reported as one of formatting: its own
		// code and data are not the tool's.
		return nil, errors.New("Output formatting failed: " + err.Error())
	}
	if err := s.tooLarge("result of tool "+rt.name, contentBytes(content)+len(out.structured)); err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: out.structured}, nil
}
