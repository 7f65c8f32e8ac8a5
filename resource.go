package mcpcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Resource defines a family of readable resources by a URI template
// (RFC 6570), such as "articles://items/{itemId}". The template's variables
// are decoded into Params, a struct whose JSON field names are the variable
// names, and validated against its schema. A URI with no variables, such as
// "config://app", defines one resource (Params is then struct{}): it is
// listed in resources/list, where a template is listed in
// resources/templates/list.
//
// Variables arrive percent-decoded: "articles://items/..%2F..%2Fetc" gives
// itemId "../../etc". A value with a control character (NUL, newline, any
// of U+0000–U+001F, U+007F–U+009F) is refused with a ValidationError unless
// AllowControlCharacters is set; anything else is the handler's to check, or
// the schema's: a `pattern:"^[0-9]+$"` tag on a Params field constrains its
// variable.
//
// The handler returns the resource's content: a string is sent as text (as
// it is, unless MIMEType is JSON), a []byte as a blob, and anything else as
// indented JSON. Its failures reach the client as JSON-RPC errors with
// exactly the code, message and data of the [mcperr.Error] they become.
type Resource[Params, Out any] struct {
	// Name identifies the resource template.
	Name string
	// Title is an optional display name.
	Title string
	// Description tells the model what the resources hold.
	Description string
	// URITemplate is the RFC 6570 template of the resources' URIs.
	URITemplate string
	// MIMEType is the type of every resource of the template; when empty,
	// application/json.
	MIMEType string
	// Errors declares the failure modes, for [Context.Fail] and
	// [Context.RecoveryFor]. It is checked at startup like a tool's.
	Errors []Failure
	// AllowControlCharacters lets decoded variables hold control
	// characters, which are refused by default: they are rarely meant, and
	// NUL or a newline passed on to a file name, a log line or a query is a
	// classic injection.
	AllowControlCharacters bool
	// Subscribe lets clients subscribe to the resources of this definition
	// (resources/subscribe); tell the subscribers of a change with
	// [Server.NotifyResourceUpdated]. A stateless server (MCP_SESSION_MODE=
	// stateless) has no session to notify, and offers no subscriptions.
	Subscribe bool
	// Complete suggests values for the template's variables
	// (completion/complete), by variable name.
	Complete map[string]CompleteFunc
	// Scopes are the OAuth scopes a caller's token must hold to read the
	// resources of this definition, checked as a [Tool]'s are; a read
	// without them fails with a JSON-RPC Forbidden (-32005) error.
	Scopes []string
	// RateLimit is the quota of reads for each caller, as a [Tool]'s; a
	// read over it fails with a JSON-RPC RateLimited (-32003) error.
	RateLimit RateLimit
	// Meta is published as the resource's _meta in resources/list (or
	// resources/templates/list), under the rules of [Tool.Meta].
	Meta map[string]any
	// Handler reads one resource. ctx.URI() is the URI being read.
	Handler func(ctx *Context, params Params) (Out, error)
	// Disabled, when set, declares these resources ones the server has but
	// does not serve, with why and what would bring them back (see
	// [Disabled]).
	Disabled *Disabled
}

func (r Resource[Params, Out]) subscribes() bool { return r.Subscribe }
func (r Resource[Params, Out]) completes() bool  { return len(r.Complete) > 0 }

func (r Resource[Params, Out]) register(s *Server) error {
	if err := checkDefinition("resource", r.Name, r.Handler != nil, r.Scopes, r.Errors); err != nil {
		return err
	}
	if err := r.Disabled.check("resource", r.Name); err != nil {
		return err
	}
	limit, err := s.rateLimitOf("resource", r.Name, r.RateLimit)
	if err != nil {
		return err
	}
	// The closures below run this copy's Handler: the interceptors' chain.
	intercept, err := intercepted(s, "resource", r.Name, r.Handler)
	if err != nil {
		return err
	}
	r.Handler = intercept
	// The SDK keys resources and templates by their URI (template).
	if err := s.claim("resource", r.URITemplate, r.Scopes); err != nil {
		return err
	}
	tmpl, err := compileTemplate(r.URITemplate)
	if err != nil {
		return fmt.Errorf("resource %q: URITemplate %q: %w", r.Name, r.URITemplate, err)
	}
	if !strings.Contains(r.URITemplate, "://") {
		return fmt.Errorf("resource %q: URITemplate %q is not absolute", r.Name, r.URITemplate)
	}
	params, err := schema.Params(reflect.TypeFor[Params]())
	if err != nil {
		return fmt.Errorf("resource %q: params type: %w", r.Name, err)
	}
	validator, err := schema.NewValidator(params)
	if err == nil {
		err = boundedInput(validator)
	}
	if err != nil {
		return fmt.Errorf("resource %q: params schema: %w", r.Name, err)
	}
	mime := r.MIMEType
	if mime == "" {
		mime = "application/json"
	}
	if err := checkVariables(tmpl.Varnames(), params); err != nil {
		return fmt.Errorf("resource %q: URITemplate %q: %w", r.Name, r.URITemplate, err)
	}
	static := len(tmpl.Varnames()) == 0
	if err := s.addCompletions("ref/resource:"+r.URITemplate, r.Complete, tmpl.Varnames()); err != nil {
		return fmt.Errorf("resource %q: %w", r.Name, err)
	}
	if r.Subscribe {
		// A subscription is accepted for exactly the URIs a read accepts.
		s.subscriptions = append(s.subscriptions, func(uri string) bool {
			if static {
				return uri == r.URITemplate
			}
			_, err := r.params(context.Background(), tmpl, validator, uri) // a URI of at most MaxURIBytes
			return err == nil
		})
	}
	read := func(c *Context) (*mcp.ReadResourceResult, error) { return r.read(c, tmpl, validator, mime) }
	def := &definition{kind: "resource", name: r.Name, contract: r.Errors, scopes: r.Scopes, limit: limit, template: r.URITemplate}
	info := &DefinitionInfo{Kind: KindResource, Name: r.Name, URITemplate: r.URITemplate, Scopes: r.Scopes}
	handler := shownTo(s, info, unknownResource, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		p := req.Params
		c := newCall(s, ctx, def, req)
		c.ctx.x = newExchange(c.version, p.GetProgressToken(), req.ClientCapabilities, p.InputResponses)
		c.ctx.uri, c.inputBytes, c.state = p.URI, len(p.URI), p.RequestState
		c.bind = func() string { return binding("resource", r.URITemplate, c.ctx.token, p.URI) }
		return serve(s, c, resourceRead{s, r.Name, read})
	})
	meta, err := publishedMeta("resource", r.Name, nil, r.Meta)
	if err != nil {
		return err
	}
	s.listed = append(s.listed, listing{resource: &mcp.ResourceTemplate{Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: mime, URITemplate: r.URITemplate, Meta: meta}, static: static, subscribe: r.Subscribe, contract: r.Errors, scopes: r.Scopes})
	var d *switchable
	if static {
		sdkDef := &mcp.Resource{Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: mime, URI: r.URITemplate, Meta: meta}
		d = s.offer(info, r.Disabled, func() { s.mcp.AddResource(sdkDef, handler) }, func() { s.mcp.RemoveResources(r.URITemplate) })
	} else {
		sdkDef := &mcp.ResourceTemplate{Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: mime, URITemplate: r.URITemplate, Meta: meta}
		d = s.offer(info, r.Disabled, func() { s.mcp.AddResourceTemplate(sdkDef, handler) }, func() { s.mcp.RemoveResourceTemplates(r.URITemplate) })
	}
	if r.Disabled != nil {
		// A URI it matches, as the SDK matches a read to a template.
		d.matches = func(uri string) bool {
			if static {
				return uri == r.URITemplate
			}
			_, ok := tmpl.variables(uri)
			return ok
		}
		s.switches.disabledResources = append(s.switches.disabledResources, d)
	}
	s.resources++
	return nil
}

// resourceRead is a resources/read in the dispatch.
type resourceRead struct {
	s    *Server
	name string
	read func(c *Context) (*mcp.ReadResourceResult, error)
}

func (r resourceRead) run(c *callState) (*mcp.ReadResourceResult, error) {
	res, err := r.read(c.ctx)
	if err != nil {
		return nil, err
	}
	size := 0
	for _, rc := range res.Contents {
		size += resourceBytes(rc)
	}
	if err := r.s.tooLarge("contents of resource "+r.name, size); err != nil {
		return nil, err
	}
	return res, nil
}

func (resourceRead) size(res *mcp.ReadResourceResult) int {
	size := 0
	for _, rc := range res.Contents {
		size += len(rc.Text) + len(rc.Blob)
	}
	return size
}

func (resourceRead) ask(questions mcp.InputRequestMap, state string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{InputRequests: questions, RequestState: state}
}

func (resourceRead) fail(f *wireError) (*mcp.ReadResourceResult, error) { return nil, f.rpcError() }

// checkVariables refuses a template whose variables and Params fields do
// not match: a variable no field receives, or a required field no variable
// fills, would fail every read as if the client were at fault.
func checkVariables(vars []string, params *jsonschema.Schema) error {
	var errs []error
	// A map Params takes any variable; a struct is closed (false is
	// {"not": {}} in jsonschema-go).
	open := params.AdditionalProperties != nil && params.AdditionalProperties.Not == nil
	for _, v := range vars {
		if _, ok := params.Properties[v]; !ok && !open {
			errs = append(errs, fmt.Errorf("variable {%s} has no field in Params: add a field with the JSON name %q", v, v))
		}
	}
	for _, name := range params.Required {
		if !slices.Contains(vars, name) {
			errs = append(errs, fmt.Errorf("the Params field %q is required, but no variable {%s} fills it: add the variable, or make the field omitempty", name, name))
		}
	}
	return errors.Join(errs...)
}

// read decodes the URI's variables, runs the handler and renders its output.
func (r Resource[Params, Out]) read(c *Context, tmpl resourceTemplate, v *schema.Validator, mime string) (*mcp.ReadResourceResult, error) {
	params, err := r.params(c, tmpl, v, c.uri)
	if err != nil {
		return nil, err
	}
	out, err := r.Handler(c, params)
	if err != nil {
		return nil, err
	}
	contents, err := resourceContents(c.uri, mime, out)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{contents}}, nil
}

// params decodes and validates the variables of uri, as a read does.
func (r Resource[Params, Out]) params(ctx context.Context, tmpl resourceTemplate, v *schema.Validator, uri string) (Params, error) {
	var zero Params
	// Linear in the URI's length, whatever its values (see variables).
	match, ok := tmpl.variables(uri)
	if !ok {
		return zero, resourceNotFound(uri)
	}
	vars := make(map[string]string, len(match))
	for name, value := range match {
		vars[name] = value.String()
		if i := strings.IndexFunc(vars[name], unicode.IsControl); i >= 0 && !r.AllowControlCharacters {
			r, _ := utf8.DecodeRuneInString(vars[name][i:])
			return zero, mcperr.ValidationError(
				fmt.Sprintf("URI variable %q holds a control character (%U); control characters are not allowed", name, r),
				mcperr.WithData(map[string]any{"variable": name}), mistake(nil))
		}
	}
	return decodeStrings[Params](ctx, v, vars)
}

// resourceNotFound is the error of a URI that no template of the server
// matches. Its data is built by the JSON encoder, unlike that of the SDK's
// ResourceNotFoundError, which formats the URI with Go's %q.
func resourceNotFound(uri string) *mcperr.Error {
	return mcperr.NotFound("Resource not found", mcperr.WithData(map[string]any{"uri": uri}))
}

// resourceContents renders a handler's output by its Go type.
func resourceContents(uri, mime string, out any) (*mcp.ResourceContents, error) {
	c := &mcp.ResourceContents{URI: uri, MIMEType: mime}
	switch v := out.(type) {
	case []byte:
		c.Blob = v
		return c, nil
	case string:
		if !jsonMIME(mime) {
			c.Text = v
			return c, nil
		}
	}
	text, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, errors.New("Output formatting failed: " + err.Error())
	}
	c.Text = string(text)
	return c, nil
}

func jsonMIME(mime string) bool {
	base, _, _ := strings.Cut(mime, ";")
	base = strings.TrimSpace(base)
	return base == "application/json" || strings.HasSuffix(base, "+json")
}
