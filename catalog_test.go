package mcpcore

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type catalogSearchIn struct {
	Query string   `json:"query" jsonschema:"what to look for"`
	Limit int      `json:"limit,omitempty" jsonschema:"at most this many"`
	Tags  []string `json:"tags,omitempty"`
	Note  *string  `json:"note,omitempty"`
}

type catalogOut struct {
	Hits []string `json:"hits"`
}

type catalogItem struct {
	ItemID string `json:"itemId"`
}

type catalogPromptArgs struct {
	Topic string `json:"topic" jsonschema:"what to write about"`
	Tone  string `json:"tone,omitempty"`
}

var (
	catalogNoMatch = Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "Nothing matched", Recovery: "Broaden the query."}
	catalogBusy    = Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "Too many searches", Recovery: "Wait.", Retryable: Retryable}
	catalogFinal   = Failure{Reason: "final", Code: mcperr.CodeConflict, When: "Already done", Recovery: "Nothing to do.", Retryable: NotRetryable}
)

// catalogServer has one of each kind of definition the catalog describes.
func catalogServer(t *testing.T, stateless bool) *Server {
	t.Helper()
	search := Tool[catalogSearchIn, catalogOut]{
		Name: "search", Title: "Search", Description: "Search the index.",
		Errors:      []Failure{catalogNoMatch, catalogBusy, catalogFinal},
		Scopes:      []string{"index:read"},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Task:        TaskSupport{Mode: TaskOptional},
		Handler:     func(*Context, catalogSearchIn) (catalogOut, error) { return catalogOut{}, nil },
	}
	// A hand-written schema: its properties are listed in its own order.
	raw := Tool[map[string]any, catalogOut]{
		Name: "raw", Description: "A tool with a hand-written schema.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"zeta":{"type":["string","null"]},"alpha":{"enum":["a","b"]},"mid":{"anyOf":[{"type":"integer"},{"type":"string"}]}},"required":["zeta"]}`),
		Handler:     func(*Context, map[string]any) (catalogOut, error) { return catalogOut{}, nil },
	}
	item := Resource[catalogItem, string]{
		Name: "item", Title: "Item", Description: "One item.", URITemplate: "items://{itemId}",
		Errors: []Failure{catalogNoMatch}, Subscribe: true,
		Complete: map[string]CompleteFunc{"itemId": func(context.Context, string, map[string]string) ([]string, error) { return nil, nil }},
		Handler:  func(*Context, catalogItem) (string, error) { return "", nil },
	}
	cfg := Resource[struct{}, string]{
		Name: "config", Description: "Settings.", URITemplate: "config://app", MIMEType: "text/plain",
		Handler: func(*Context, struct{}) (string, error) { return "", nil },
	}
	prompt := Prompt[catalogPromptArgs]{
		Name: "write", Title: "Write", Description: "Write about a topic.",
		Handler: func(*Context, catalogPromptArgs) ([]*mcp.PromptMessage, error) { return nil, nil },
	}
	s, err := NewServer(Info{Name: "catalogued", Title: "Catalogued", Version: "0.3.0", Instructions: "Search first."},
		&ServerOptions{Config: Config{Stateless: stateless}}, search, raw, item, cfg, prompt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// listed connects an in-memory client to s and returns what it lists.
func listed(t *testing.T, s *Server) (*mcp.InitializeResult, map[string]any) {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs.InitializeResult(), map[string]any{
		"tools": asJSON(t, tools.Tools), "resources": asJSON(t, resources.Resources),
		"templates": asJSON(t, templates.ResourceTemplates), "prompts": asJSON(t, prompts.Prompts),
	}
}

// asJSON is v as a client decodes it.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func serverCard(t *testing.T, s *Server) map[string]any {
	t.Helper()
	w := httptest.NewRecorder()
	httpserve.Card(s.catalogSource(s.catalog()), nil).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/.well-known/mcp.json", nil))
	if w.Code != http.StatusOK {
		t.Fatalf("card: %d %s", w.Code, w.Body)
	}
	var card map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &card); err != nil {
		t.Fatal(err)
	}
	return card
}

// byName indexes a list of JSON objects by their "name".
func byName(list any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, v := range list.([]any) {
		m := v.(map[string]any)
		out[m["name"].(string)] = m
	}
	return out
}

// TestCardToolsAreToolsList checks the card against what a client lists:
// each tool as tools/list gives it, contract and all (the card adds only
// the scopes, under their own _meta key); resources and prompts as their
// lists give them; capabilities as initialize announces them.
func TestCardToolsAreToolsList(t *testing.T) {
	for _, mode := range []string{"stateful", "stateless"} {
		t.Run(mode, func(t *testing.T) {
			s := catalogServer(t, mode == "stateless")
			init, lists := listed(t, s)
			card := serverCard(t, s)

			listedTools, cardTools := byName(lists["tools"]), byName(card["tools"])
			if len(cardTools) != len(listedTools) {
				t.Fatalf("card has %d tools, tools/list %d", len(cardTools), len(listedTools))
			}
			for name, want := range listedTools {
				got := cardTools[name]
				if meta, ok := got["_meta"].(map[string]any); ok {
					delete(meta, httpserve.ScopesMetaKey)
					if len(meta) == 0 {
						delete(got, "_meta")
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("tool %s: card differs from tools/list (-list +card):\n%s", name, diff)
				}
			}
			scopes := cardTools["search"]["_meta"]
			if scopes == nil {
				t.Error("the card lost the scopes of search")
			}

			resources := append(lists["resources"].([]any), lists["templates"].([]any)...)
			listedRes, cardRes := byName(resources), byName(card["resources"])
			for name, want := range listedRes {
				got := cardRes[name]
				delete(got, "_meta")
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("resource %s: card differs from the lists (-list +card):\n%s", name, diff)
				}
			}
			if diff := cmp.Diff(lists["prompts"], card["prompts"]); diff != "" {
				t.Errorf("prompts: card differs from prompts/list (-list +card):\n%s", diff)
			}
			if diff := cmp.Diff(asJSON(t, init.Capabilities), card["capabilities"]); diff != "" {
				t.Errorf("capabilities: card differs from initialize (-initialize +card):\n%s", diff)
			}
		})
	}
}

// TestCatalogForPeople checks what the page shows that no list gives: the
// input summary, the contract with code names, the subscription flag.
func TestCatalogForPeople(t *testing.T) {
	c := catalogServer(t, false).catalog()
	if c.Name != "catalogued" || c.Title != "Catalogued" || c.Version != "0.3.0" || c.Instructions != "Search first." || c.Endpoint != HTTPPath {
		t.Errorf("identity: %+v", c)
	}
	want := []httpserve.Argument{
		{Name: "query", Type: "string", Required: true, Description: "what to look for"},
		{Name: "limit", Type: "integer", Description: "at most this many"},
		{Name: "tags", Type: "array of string"},
		{Name: "note", Type: "string"},
	}
	if diff := cmp.Diff(want, c.Tools[0].Input); diff != "" {
		t.Errorf("search input (-want +got):\n%s", diff)
	}
	want = []httpserve.Argument{
		{Name: "zeta", Type: "string or null", Required: true},
		{Name: "alpha", Type: `one of "a", "b"`},
		{Name: "mid", Type: "integer or string"},
	}
	if diff := cmp.Diff(want, c.Tools[1].Input); diff != "" {
		t.Errorf("raw input, in the schema's order (-want +got):\n%s", diff)
	}
	yes, no := true, false
	wantContract := []httpserve.Failure{
		{Reason: "no_match", Code: -32001, CodeName: "NotFound", When: "Nothing matched", Recovery: "Broaden the query."},
		{Reason: "busy", Code: -32003, CodeName: "RateLimited", When: "Too many searches", Recovery: "Wait.", Retryable: &yes},
		{Reason: "final", Code: -32002, CodeName: "Conflict", When: "Already done", Recovery: "Nothing to do.", Retryable: &no},
	}
	if diff := cmp.Diff(wantContract, c.Tools[0].Contract); diff != "" {
		t.Errorf("contract (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"index:read"}, c.Tools[0].Scopes); diff != "" {
		t.Errorf("scopes (-want +got):\n%s", diff)
	}
	if c.Tools[0].Task != "optional" || c.Tools[1].Task != "" {
		t.Errorf("task support: search %q, raw %q; want optional and none", c.Tools[0].Task, c.Tools[1].Task)
	}
	if r := c.Resources[0]; !r.Template || !r.Subscribe || r.URITemplate != "items://{itemId}" || len(r.Contract) != 1 {
		t.Errorf("item resource: %+v", r)
	}
	if r := c.Resources[1]; r.Template || r.Subscribe || r.MIMEType != "text/plain" {
		t.Errorf("config resource: %+v", r)
	}
	wantArgs := []httpserve.Argument{{Name: "topic", Required: true, Description: "what to write about"}, {Name: "tone"}}
	if diff := cmp.Diff(wantArgs, c.Prompts[0].Arguments); diff != "" {
		t.Errorf("prompt arguments (-want +got):\n%s", diff)
	}
	if a := c.Authentication; a == nil || a.Required {
		t.Errorf("authentication in mode none: %+v", a)
	}
	// Stateless, subscriptions are taken on subscriptions/listen streams.
	if s := catalogServer(t, true); !s.catalog().Resources[0].Subscribe {
		t.Error("a stateless server hides the subscription it offers on subscriptions/listen")
	}
}
