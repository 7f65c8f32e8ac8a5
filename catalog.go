package mcpcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A listing is what one definition shows of itself on the landing page and
// the server card, recorded by its register function: its SDK definition
// (for a tool or a prompt, the very value tools/list or prompts/list gives
// out) and what the SDK does not keep, such as the contract.
type listing struct {
	tool      *mcp.Tool
	resource  *mcp.ResourceTemplate // a static resource's URI is its URITemplate
	static    bool                  // a resource without variables
	subscribe bool                  // a resource that accepts subscriptions
	prompt    *mcp.Prompt
	contract  []Failure
	scopes    []string
}

// catalog describes everything s serves, for the landing page and the
// server card.
func (s *Server) catalog() *httpserve.Catalog {
	c := &httpserve.Catalog{
		Name:             s.info.Name,
		Title:            s.info.Title,
		Version:          s.info.Version,
		Instructions:     s.info.Instructions,
		Endpoint:         HTTPPath,
		ProtocolVersions: mcp.SupportedProtocolVersions(),
		Capabilities:     mustJSON(s.capabilities()),
		Authentication:   authentication(s.auth),
		Tools:            []httpserve.Tool{},
		Resources:        []httpserve.Resource{},
		Prompts:          []httpserve.Prompt{},
	}
	for _, l := range s.listed {
		switch {
		case l.tool != nil:
			t := l.tool
			input := mustJSON(t.InputSchema)
			ct := httpserve.Tool{
				Name: t.Name, Title: t.Title, Description: t.Description,
				Input:       inputArguments(input),
				Contract:    catalogContract(l.contract),
				Scopes:      l.scopes,
				InputSchema: input,
				Meta:        t.Meta,
				Disabled:    s.disabledOf(KindTool, t.Name),
			}
			if t.OutputSchema != nil {
				ct.OutputSchema = mustJSON(t.OutputSchema)
			}
			if t.Annotations != nil {
				ct.Annotations = mustJSON(t.Annotations)
			}
			ct.Task, _ = t.Meta[taskMetaKey].(string) // as tools/list publishes it
			c.Tools = append(c.Tools, ct)
		case l.resource != nil:
			r := l.resource
			cr := httpserve.Resource{
				Name: r.Name, Title: r.Title, Description: r.Description,
				URITemplate: r.URITemplate, Template: !l.static, MIMEType: r.MIMEType,
				Subscribe: l.subscribe,
				Disabled:  s.disabledOf(KindResource, r.URITemplate),
				Contract:  catalogContract(l.contract),
				Scopes:    l.scopes,
			}
			if len(l.contract) > 0 || len(r.Meta) > 0 {
				// Published as tools/list publishes a tool's, beside the
				// resource's own Meta.
				cr.Meta = maps.Clone(r.Meta)
				if cr.Meta == nil {
					cr.Meta = map[string]any{}
				}
				if len(l.contract) > 0 {
					cr.Meta[contract.MetaKey] = contract.Publish(l.contract)
				}
			}
			c.Resources = append(c.Resources, cr)
		case l.prompt != nil:
			p := l.prompt
			cp := httpserve.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Scopes: l.scopes,
				Contract: catalogContract(l.contract), Meta: p.Meta, Disabled: s.disabledOf(KindPrompt, p.Name)}
			for _, a := range p.Arguments {
				cp.Arguments = append(cp.Arguments, httpserve.Argument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
			}
			c.Prompts = append(c.Prompts, cp)
		}
	}
	return c
}

// capabilities are the server capabilities initialize announces, worked
// out as the SDK does from what NewServer gave it (the SDK keeps its own
// computation private; a test holds the two together).
func (s *Server) capabilities() *mcp.ServerCapabilities {
	//lint:ignore SA1019 the SDK still announces logging, and the card says what initialize says
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	if s.tools > 0 {
		caps.Tools = &mcp.ToolCapabilities{ListChanged: true}
	}
	if s.prompts > 0 {
		caps.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	}
	if s.resources > 0 {
		caps.Resources = &mcp.ResourceCapabilities{ListChanged: true, Subscribe: len(s.subscriptions) > 0}
	}
	if len(s.completions) > 0 {
		caps.Completions = &mcp.CompletionCapabilities{}
	}
	if s.taskStore != nil { // a tool runs tasks (see NewServer)
		caps.Extensions = map[string]any{tasksExtension: map[string]any{}}
	}
	return caps
}

// authentication is what the card says of the endpoint's authentication
// (MCP_AUTH_MODE).
func authentication(a HTTPAuth) *httpserve.Authentication {
	if a == nil {
		return &httpserve.Authentication{Required: false}
	}
	return &httpserve.Authentication{Required: true, Schemes: []string{a.Scheme()}}
}

// catalogContract is the contract as published in tools/list, with each
// code's name for people.
func catalogContract(entries []Failure) []httpserve.Failure {
	published := contract.Publish(entries)
	out := make([]httpserve.Failure, len(published))
	for i, f := range published {
		out[i] = httpserve.Failure{Reason: f.Reason, Code: f.Code, When: f.When, Recovery: f.Recovery, Retryable: f.Retryable}
		if code := mcperr.Code(f.Code); code.Known() {
			out[i].CodeName = code.String()
		}
	}
	return out
}

// mustJSON encodes what the SDK encodes in tools/list: values that always
// encode.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcpcore: encoding a definition for the catalog: %v", err))
	}
	return b
}

// inputArguments summarizes the top-level properties of an object schema,
// in the order the schema lists them.
func inputArguments(schema json.RawMessage) []httpserve.Argument {
	var s struct {
		Properties map[string]propertySchema `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var args []httpserve.Argument
	for _, name := range propertyOrder(schema) {
		p, ok := s.Properties[name]
		if !ok {
			continue
		}
		args = append(args, httpserve.Argument{
			Name: name, Title: p.Title, Type: p.typeName(),
			Required: slices.Contains(s.Required, name), Description: p.Description,
		})
	}
	return args
}

// propertySchema is the part of a property's schema a summary shows.
type propertySchema struct {
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Type        json.RawMessage  `json:"type"`
	Items       *propertySchema  `json:"items"`
	Enum        []any            `json:"enum"`
	AnyOf       []propertySchema `json:"anyOf"`
	OneOf       []propertySchema `json:"oneOf"`
}

// typeName is the property's type in a few words: "string", "array of
// integer", "string or null", "one of \"a\", \"b\"".
func (p propertySchema) typeName() string {
	var one string
	var many []string
	switch {
	case json.Unmarshal(p.Type, &one) == nil && one != "":
		many = []string{one}
	case json.Unmarshal(p.Type, &many) == nil && len(many) > 0:
	case len(p.Enum) > 0:
		vals := make([]string, len(p.Enum))
		for i, v := range p.Enum {
			vals[i] = string(mustJSON(v))
		}
		return "one of " + strings.Join(vals, ", ")
	case len(p.AnyOf) > 0 || len(p.OneOf) > 0:
		var names []string
		for _, b := range append(p.AnyOf, p.OneOf...) {
			if n := b.typeName(); n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		return strings.Join(names, " or ")
	default:
		return "any"
	}
	for i, t := range many {
		if t == "array" && p.Items != nil {
			if item := p.Items.typeName(); item != "any" {
				many[i] = "array of " + item
			}
		}
	}
	return strings.Join(many, " or ")
}

// propertyOrder lists the keys of the schema's "properties" object in the
// order they appear, which a map loses.
func propertyOrder(schema json.RawMessage) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(top["properties"]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return names
		}
		name, _ := tok.(string)
		names = append(names, name)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return names
		}
	}
	return names
}
