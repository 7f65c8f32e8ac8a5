package mcpcore

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/schema"
)

// A Prompt defines a prompt template. Args is a struct of string fields: each
// field is one argument, named by its JSON name, described by its
// `jsonschema:"..."` tag, and required unless it is marked omitempty or
// omitzero. Its failures reach the client as JSON-RPC errors with exactly the
// code, message and data of the [mcperr.Error] they become.
type Prompt[Args any] struct {
	// Name is the prompt's unique name.
	Name string
	// Title is an optional display name.
	Title string
	// Description tells the client what the prompt is for.
	Description string
	// Errors declares the failure modes, for [Context.Fail] and
	// [Context.FailFrom], as a [Resource]'s do: checked when the server
	// starts, published in prompts/list under _meta["mcpcore/errors"] and
	// in the server card, and rendered as JSON-RPC errors.
	Errors []Failure
	// Complete suggests values for the prompt's arguments
	// (completion/complete), by argument name.
	Complete map[string]CompleteFunc
	// Scopes are the OAuth scopes a caller's token must hold to get the
	// prompt, checked as a [Tool]'s are; a call without them fails with a
	// JSON-RPC Forbidden (-32005) error.
	Scopes []string
	// RateLimit is the prompt's quota for each caller, as a [Tool]'s; a
	// request over it fails with a JSON-RPC RateLimited (-32003) error.
	RateLimit RateLimit
	// Meta is published as the prompt's _meta in prompts/list, under the
	// rules of [Tool.Meta].
	Meta map[string]any
	// Handler builds the prompt's messages.
	Handler func(ctx *Context, args Args) ([]*mcp.PromptMessage, error)
	// Disabled, when set, declares the prompt one the server has but does
	// not serve, with why and what would bring it back (see [Disabled]).
	Disabled *Disabled
}

func (p Prompt[Args]) subscribes() bool { return false }
func (p Prompt[Args]) completes() bool  { return len(p.Complete) > 0 }

func (p Prompt[Args]) register(s *Server) error {
	if err := checkDefinition("prompt", p.Name, p.Handler != nil, p.Scopes, p.Errors); err != nil {
		return err
	}
	if err := p.Disabled.check("prompt", p.Name); err != nil {
		return err
	}
	limit, err := s.rateLimitOf("prompt", p.Name, p.RateLimit)
	if err != nil {
		return err
	}
	// The closures below run this copy's Handler: the interceptors' chain.
	handler, err := intercepted(s, "prompt", p.Name, p.Handler)
	if err != nil {
		return err
	}
	p.Handler = handler
	if err := s.claim("prompt", p.Name, p.Scopes); err != nil {
		return err
	}
	argSchema, err := schema.Params(reflect.TypeFor[Args]())
	if err != nil {
		return fmt.Errorf("prompt %q: arguments type: %w", p.Name, err)
	}
	validator, err := schema.NewValidator(argSchema)
	if err == nil {
		err = boundedInput(validator)
	}
	if err != nil {
		return fmt.Errorf("prompt %q: arguments schema: %w", p.Name, err)
	}
	var own mcp.Meta
	if len(p.Errors) > 0 {
		own = mcp.Meta{contract.MetaKey: contract.Publish(p.Errors)}
	}
	meta, err := publishedMeta("prompt", p.Name, own, p.Meta)
	if err != nil {
		return err
	}
	def := &mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: promptArguments(argSchema), Meta: meta}
	names := make([]string, len(def.Arguments))
	for i, a := range def.Arguments {
		names[i] = a.Name
	}
	if err := s.addCompletions("ref/prompt:"+p.Name, p.Complete, names); err != nil {
		return fmt.Errorf("prompt %q: %w", p.Name, err)
	}
	get := func(c *Context, args map[string]string) (*mcp.GetPromptResult, error) {
		return p.get(c, validator, args)
	}
	defined := &definition{kind: "prompt", name: p.Name, contract: p.Errors, scopes: p.Scopes, limit: limit}
	info := &DefinitionInfo{Kind: KindPrompt, Name: p.Name, Scopes: p.Scopes}
	sdkHandler := shownTo(s, info, unknownPrompt, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		input := 0
		for k, v := range req.Params.Arguments {
			input += len(k) + len(v)
		}
		args := req.Params
		c := newCall(s, ctx, defined, req)
		c.ctx.x = newExchange(c.version, args.GetProgressToken(), req.ClientCapabilities, args.InputResponses)
		c.inputBytes, c.state = input, args.RequestState
		c.bind = func() string { return binding("prompt", p.Name, c.ctx.token, args.Arguments) }
		return serve(s, c, promptGet{s, p.Name, args.Arguments, get})
	})
	s.offer(info, p.Disabled, func() { s.mcp.AddPrompt(def, sdkHandler) }, func() { s.mcp.RemovePrompts(p.Name) })
	s.listed = append(s.listed, listing{prompt: def, contract: p.Errors, scopes: p.Scopes})
	s.prompts++
	return nil
}

// promptGet is a prompts/get in the dispatch.
type promptGet struct {
	s    *Server
	name string
	args map[string]string
	get  func(c *Context, args map[string]string) (*mcp.GetPromptResult, error)
}

func (p promptGet) run(c *callState) (*mcp.GetPromptResult, error) {
	res, err := p.get(c.ctx, p.args)
	if err != nil {
		return nil, err
	}
	size := 0
	for _, m := range res.Messages {
		if m != nil {
			size += contentBytes([]mcp.Content{m.Content})
		}
	}
	if err := p.s.tooLarge("messages of prompt "+p.name, size); err != nil {
		return nil, err
	}
	c.messages = len(res.Messages)
	return res, nil
}

func (promptGet) size(res *mcp.GetPromptResult) int {
	size := 0
	for _, m := range res.Messages {
		if m == nil {
			continue
		}
		if t, ok := m.Content.(*mcp.TextContent); ok {
			size += len(t.Text)
		}
	}
	return size
}

func (promptGet) ask(questions mcp.InputRequestMap, state string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{InputRequests: questions, RequestState: state}
}

func (promptGet) fail(f *wireError) (*mcp.GetPromptResult, error) { return nil, f.rpcError() }

func (p Prompt[Args]) get(c *Context, v *schema.Validator, given map[string]string) (*mcp.GetPromptResult, error) {
	a, err := decodeStrings[Args](c, v, given)
	if err != nil {
		return nil, err
	}
	msgs, err := p.Handler(c, a)
	if err != nil {
		return nil, err
	}
	if msgs == nil {
		msgs = []*mcp.PromptMessage{} // messages is a required array, never null
	}
	return &mcp.GetPromptResult{Description: p.Description, Messages: msgs}, nil
}

// promptArguments lists a prompt's arguments from the schema of its Args
// struct, in field order.
func promptArguments(s *jsonschema.Schema) []*mcp.PromptArgument {
	required := make(map[string]bool, len(s.Required))
	for _, name := range s.Required {
		required[name] = true
	}
	names := s.PropertyOrder
	if len(names) == 0 {
		names = slices.Sorted(maps.Keys(s.Properties))
	}
	args := make([]*mcp.PromptArgument, 0, len(names))
	for _, name := range names {
		prop, ok := s.Properties[name]
		if !ok {
			continue
		}
		args = append(args, &mcp.PromptArgument{Name: name, Title: prop.Title, Description: prop.Description, Required: required[name]})
	}
	return args
}
