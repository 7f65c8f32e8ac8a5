package mcpcore

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A DefinitionKind is what a definition is: a tool, a resource or a
// prompt.
type DefinitionKind string

// The kinds of definitions.
const (
	KindTool     DefinitionKind = "tool"
	KindResource DefinitionKind = "resource"
	KindPrompt   DefinitionKind = "prompt"
)

// DefinitionInfo describes a definition to [ServerOptions.Visible].
type DefinitionInfo struct {
	Kind DefinitionKind
	// Name is the tool's or prompt's name, or the resource's Name.
	Name string
	// URITemplate is a resource's URI template (its URI when it has no
	// variables); "" for a tool or a prompt. It is the name by which
	// [Server.SetEnabled] knows a resource.
	URITemplate string
	// Scopes are the OAuth scopes the definition declares.
	Scopes []string
}

// key is the definition's key: the one under which the server claims its
// name, and a [fleet.Catalog] keeps its state.
func (d DefinitionInfo) key() string {
	if d.Kind == KindResource {
		return definitionKey(d.Kind, d.URITemplate)
	}
	return definitionKey(d.Kind, d.Name)
}

// definitionKey is "tool:<name>", "prompt:<name>", "resource:<URI template>".
func definitionKey(kind DefinitionKind, name string) string { return string(kind) + ":" + name }

// A VisibleFunc decides whether one caller sees one definition (see
// [ServerOptions.Visible]). caller is the bearer token's, nil without
// authentication.
type VisibleFunc func(ctx context.Context, caller *auth.TokenInfo, d DefinitionInfo) bool

// visibleTo reports whether the caller of a request sees the definition:
// always without a Visible function. A Visible that panics hides the
// definition (a definition shown by mistake is the worse failure), and is
// logged, collapsed.
func (s *Server) visibleTo(ctx context.Context, extra *mcp.RequestExtra, d *DefinitionInfo) bool {
	if s.visible == nil {
		return true
	}
	var caller *auth.TokenInfo
	if extra != nil {
		caller = extra.TokenInfo
	}
	shown, err := guard(func() (bool, error) { return s.visible(ctx, caller, *d), nil })
	if err != nil {
		msg := "mcpcore: ServerOptions.Visible panicked; the definition is hidden from this caller"
		attrs := []slog.Attr{slog.String("definition", d.key()), slog.String("error", err.Error())}
		if s.repeats.Admit("visible "+d.key(), slog.LevelError, msg, attrs) {
			s.logger.LogAttrs(context.WithoutCancel(ctx), slog.LevelError, msg, attrs...)
		}
		return false
	}
	return shown
}

// shownTo wraps the handler the SDK runs for a definition: for a caller
// that does not see it, the SDK's own answer for a definition it does not
// have (unknown), before anything of the definition runs.
func shownTo[P mcp.Params, R any](s *Server, d *DefinitionInfo, unknown func(P) error, h func(context.Context, *mcp.ServerRequest[P]) (R, error)) func(context.Context, *mcp.ServerRequest[P]) (R, error) {
	return func(ctx context.Context, req *mcp.ServerRequest[P]) (R, error) {
		if !s.visibleTo(ctx, req.Extra, d) {
			var zero R
			return zero, unknown(req.Params)
		}
		return h(ctx, req)
	}
}

// The SDK's answers for a tool, prompt or resource it does not have
// (mcp.Server's callTool, getPrompt and readResource), which a caller
// that does not see a definition gets, so that its existence does not
// show.
func unknownTool(p *mcp.CallToolParamsRaw) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", p.Name)}
}

func unknownPrompt(p *mcp.GetPromptParams) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", p.Name)}
}

func unknownResource(p *mcp.ReadResourceParams) error { return mcp.ResourceNotFoundError(p.URI) }

// listedTo takes out of a list result what the request's caller does not
// see; receive calls it on every answer. The SDK builds each list result
// afresh, so it is filtered in place.
func (s *Server) listedTo(ctx context.Context, req mcp.Request, res mcp.Result) {
	if s.visible == nil {
		return
	}
	extra := req.GetExtra()
	shown := func(kind DefinitionKind, name string) bool {
		d := s.switches.defs[definitionKey(kind, name)]
		return d == nil || s.visibleTo(ctx, extra, &d.info)
	}
	switch r := res.(type) {
	case *mcp.ListToolsResult:
		r.Tools = keep(r.Tools, func(t *mcp.Tool) bool { return shown(KindTool, t.Name) })
	case *mcp.ListPromptsResult:
		r.Prompts = keep(r.Prompts, func(p *mcp.Prompt) bool { return shown(KindPrompt, p.Name) })
	case *mcp.ListResourcesResult:
		r.Resources = keep(r.Resources, func(x *mcp.Resource) bool { return shown(KindResource, x.URI) })
	case *mcp.ListResourceTemplatesResult:
		r.ResourceTemplates = keep(r.ResourceTemplates, func(x *mcp.ResourceTemplate) bool { return shown(KindResource, x.URITemplate) })
	}
}

// keep is the items of list for which shown holds, in their order.
func keep[T any](list []T, shown func(T) bool) []T {
	out := list[:0]
	for _, x := range list {
		if shown(x) {
			out = append(out, x)
		}
	}
	return out
}

// completesFor reports whether the definition a completion refers to is
// enabled and seen by the request's caller: one that is not completes
// nothing, as one the server does not have.
func (s *Server) completesFor(ctx context.Context, req *mcp.CompleteRequest, ref *mcp.CompleteReference) bool {
	kind, name := KindPrompt, ref.Name
	if ref.Type == "ref/resource" {
		kind, name = KindResource, ref.URI
	}
	d, on := s.switchOf(kind, name)
	if d == nil {
		return true
	}
	return on && s.visibleTo(ctx, req.Extra, &d.info)
}
