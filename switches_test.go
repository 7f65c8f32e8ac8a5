package mcpcore_test

// What the server lists and serves at run time: definitions switched off
// for the whole fleet (SetEnabled), hidden from some callers (Visible), and
// the one list_changed each change raises.

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcphttp"
)

var (
	openTool   = mcpcore.Tool[none, touched]{Name: "open", Description: "always there", Handler: func(*mcpcore.Context, none) (touched, error) { return touched{"open"}, nil }}
	secretTool = mcpcore.Tool[none, touched]{Name: "secret", Description: "now and then", Handler: func(*mcpcore.Context, none) (touched, error) { return touched{"secret"}, nil }}
	secretNote = mcpcore.Resource[struct{}, string]{Name: "secret-note", URITemplate: "switch://note", MIMEType: "text/plain",
		Handler: func(*mcpcore.Context, struct{}) (string, error) { return "note", nil }}
	secretItem = mcpcore.Resource[idParams, string]{Name: "secret-item", URITemplate: "switch://items/{id}", MIMEType: "text/plain",
		Handler: func(_ *mcpcore.Context, p idParams) (string, error) { return p.ID, nil }}
	secretBrief = mcpcore.Prompt[briefArgs]{Name: "secret-brief", Description: "now and then",
		Handler: func(*mcpcore.Context, briefArgs) ([]*mcp.PromptMessage, error) {
			return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "brief"}}}, nil
		}}
)

// switchable are the definitions of these tests.
func switchable() []mcpcore.Definition {
	return []mcpcore.Definition{openTool, secretTool, secretNote, secretItem, secretBrief}
}

// answers are what a client gets for each kind of use of the secret
// definitions: the names listed, and the error of each call, get and read.
type answers struct {
	tools, prompts, resources, templates []string
	call, get, read, readTemplate        string
}

func answersOf(t *testing.T, cs *mcp.ClientSession) answers {
	t.Helper()
	ctx := context.Background()
	var a answers
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range tools.Tools {
		a.tools = append(a.tools, x.Name)
	}
	// Servers with no prompt or resource at all answer these lists with
	// an error; those without a secret one list nothing either way.
	if res, err := cs.ListPrompts(ctx, nil); err == nil {
		for _, x := range res.Prompts {
			a.prompts = append(a.prompts, x.Name)
		}
	}
	if res, err := cs.ListResources(ctx, nil); err == nil {
		for _, x := range res.Resources {
			a.resources = append(a.resources, x.URI)
		}
	}
	if res, err := cs.ListResourceTemplates(ctx, nil); err == nil {
		for _, x := range res.ResourceTemplates {
			a.templates = append(a.templates, x.URITemplate)
		}
	}
	wire := func(err error) string {
		var w *jsonrpc.Error
		if !errors.As(err, &w) {
			return "not a JSON-RPC error: " + errString(err)
		}
		return wiretest.Canonical(t, w)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "secret", Arguments: map[string]any{}})
	a.call = wire(err)
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "secret-brief", Arguments: map[string]string{"topic": "x"}})
	a.get = wire(err)
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "switch://note"})
	a.read = wire(err)
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "switch://items/7"})
	a.readTemplate = wire(err)
	return a
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

func newSwitchServer(t *testing.T, opts *mcpcore.ServerOptions, defs ...mcpcore.Definition) *mcpcore.Server {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "switches"}, opts, defs...)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// A definition switched off is listed nowhere, and its call, get or read
// is answered byte for byte as one of a definition the server never had;
// switched on again, it is served again.
func TestSetEnabledHidesAsUnknown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := newSwitchServer(t, &mcpcore.ServerOptions{}, switchable()...)
	cs := wiretest.Connect(t, srv.MCPServer())
	// A server without the secret definitions, but with a prompt and a
	// resource (whose lists then answer): its answers are the unknown ones.
	without := newSwitchServer(t, &mcpcore.ServerOptions{}, openTool, briefPrompt, noteResource)
	want := answersOf(t, wiretest.Connect(t, without.MCPServer()))
	want.prompts, want.resources, want.templates = nil, nil, nil

	for _, sw := range []struct {
		kind mcpcore.DefinitionKind
		name string
	}{{mcpcore.KindTool, "secret"}, {mcpcore.KindPrompt, "secret-brief"}, {mcpcore.KindResource, "switch://note"}, {mcpcore.KindResource, "switch://items/{id}"}} {
		if err := srv.SetEnabled(ctx, sw.kind, sw.name, false); err != nil {
			t.Fatal(err)
		}
		if srv.Enabled(sw.kind, sw.name) {
			t.Errorf("Enabled(%s %q) after switching it off", sw.kind, sw.name)
		}
	}
	got := answersOf(t, cs)
	if got.call != want.call || got.get != want.get || got.read != want.read || got.readTemplate != want.readTemplate {
		t.Errorf("switched off, the secret definitions answer\n%+v\nwant, as a server without them,\n%+v", got, want)
	}
	if !slices.Equal(got.tools, []string{"open"}) || len(got.prompts)+len(got.resources)+len(got.templates) != 0 {
		t.Errorf("switched off, the lists still show them: %+v", got)
	}
	for _, k := range []mcpcore.DefinitionKind{mcpcore.KindTool, mcpcore.KindPrompt, mcpcore.KindResource} {
		if err := srv.SetEnabled(ctx, k, "nonesuch", false); err == nil {
			t.Errorf("SetEnabled of an undefined %s: no error", k)
		}
	}

	if err := srv.SetEnabled(ctx, mcpcore.KindTool, "secret", true); err != nil {
		t.Fatal(err)
	}
	if res := wiretest.CallTool(t, cs, "secret", map[string]any{}); res.IsError {
		t.Errorf("switched on again, the tool fails: %v", res.Content)
	}
	// Capabilities keep the kinds switched off whole: a client that
	// connects now still learns of list changes to come.
	init := wiretest.Connect(t, srv.MCPServer()).InitializeResult().Capabilities
	if init.Prompts == nil || !init.Prompts.ListChanged || init.Resources == nil || !init.Resources.ListChanged {
		t.Errorf("with every prompt and resource switched off, initialize says %+v; want prompts and resources with listChanged", init)
	}
}

// A caller that ServerOptions.Visible hides a definition from sees it in
// no list, and gets the answers of a server without it; another caller
// sees it and uses it.
func TestVisibleHidesPerCaller(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var asked []mcpcore.DefinitionInfo
	opts := withAuth(t, &mcpcore.ServerOptions{Visible: func(_ context.Context, caller *auth.TokenInfo, d mcpcore.DefinitionInfo) bool {
		mu.Lock()
		asked = append(asked, d)
		mu.Unlock()
		return d.Name == "open" || caller.UserID == "alice"
	}}, mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: testSecret})
	url := serveHTTP(t, newSwitchServer(t, opts, switchable()...))
	connect := func(sub, url string) *mcp.ClientSession {
		tr := &mcp.StreamableClientTransport{Endpoint: url}
		if sub != "" {
			tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": sub, "exp": time.Now().Add(time.Hour).Unix()}).SignedString([]byte(testSecret))
			if err != nil {
				t.Fatal(err)
			}
			tr.HTTPClient = &http.Client{Transport: bearer{tok}}
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(context.Background(), tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	without := newSwitchServer(t, &mcpcore.ServerOptions{}, openTool, briefPrompt, noteResource)
	want := answersOf(t, connect("", serveHTTP(t, without)))
	want.prompts, want.resources, want.templates = nil, nil, nil

	if got := answersOf(t, connect("bob", url)); !equalAnswers(got, want) {
		t.Errorf("bob, from whom the secret definitions are hidden, gets\n%+v\nwant, as from a server without them,\n%+v", got, want)
	}
	alice := connect("alice", url)
	got := answersOf(t, alice)
	if !slices.Equal(got.tools, []string{"open", "secret"}) || !slices.Equal(got.prompts, []string{"secret-brief"}) ||
		!slices.Equal(got.resources, []string{"switch://note"}) || !slices.Equal(got.templates, []string{"switch://items/{id}"}) {
		t.Errorf("alice sees %+v; want every definition", got)
	}
	if got.call != "not a JSON-RPC error: no error" || got.read != got.call || got.readTemplate != got.call || got.get != got.call {
		t.Errorf("alice's uses of the secret definitions fail: %+v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if i := slices.IndexFunc(asked, func(d mcpcore.DefinitionInfo) bool { return d.Name == "secret-item" }); i < 0 ||
		asked[i].Kind != mcpcore.KindResource || asked[i].URITemplate != "switch://items/{id}" {
		t.Errorf("Visible was not told of the template as a resource with its URITemplate: %+v", asked)
	}
}

func equalAnswers(a, b answers) bool {
	return slices.Equal(a.tools, b.tools) && slices.Equal(a.prompts, b.prompts) && slices.Equal(a.resources, b.resources) &&
		slices.Equal(a.templates, b.templates) && a.call == b.call && a.get == b.get && a.read == b.read && a.readTemplate == b.readTemplate
}

// A Visible that panics hides the definition: the server stays up.
func TestVisiblePanicHides(t *testing.T) {
	t.Parallel()
	srv := newSwitchServer(t, &mcpcore.ServerOptions{Visible: func(_ context.Context, _ *auth.TokenInfo, d mcpcore.DefinitionInfo) bool {
		if d.Name == "secret" {
			panic("boom")
		}
		return true
	}}, switchable()...)
	got := answersOf(t, wiretest.Connect(t, srv.MCPServer()))
	if slices.Contains(got.tools, "secret") || got.call == "not a JSON-RPC error: no error" {
		t.Errorf("a Visible that panics for secret: %+v; want it hidden", got)
	}
}

// heard counts the list_changed notifications one client hears.
type heard struct {
	mu                        sync.Mutex
	tools, prompts, resources int
	signal                    chan struct{}
}

func newHeard() *heard { return &heard{signal: make(chan struct{}, 64)} }

func (h *heard) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			h.mu.Lock()
			h.tools++
			h.mu.Unlock()
			h.signal <- struct{}{}
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			h.mu.Lock()
			h.resources++
			h.mu.Unlock()
		},
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
			h.mu.Lock()
			h.prompts++
			h.mu.Unlock()
			h.signal <- struct{}{}
		},
	}
}

// counts waits until the client heard tools and prompts changes, and
// fails if it heard more of them by then.
func (h *heard) await(t *testing.T, who string, tools, prompts int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		h.mu.Lock()
		gt, gp := h.tools, h.prompts
		h.mu.Unlock()
		if gt > tools || gp > prompts {
			t.Fatalf("%s heard %d tools and %d prompts list_changed; want %d and %d", who, gt, gp, tools, prompts)
		}
		if gt == tools && gp == prompts {
			return
		}
		select {
		case <-h.signal:
		case <-deadline:
			t.Fatalf("%s heard %d tools and %d prompts list_changed; want %d and %d", who, gt, gp, tools, prompts)
		}
	}
}

// sharedCatalog is an in-memory fleet.Catalog shared by replicas, whose
// messages the test delivers or loses at will.
type sharedCatalog struct {
	mu       sync.Mutex
	disabled map[string]bool
	watchers []func()
	lose     bool
}

type replicaCatalog struct{ c *sharedCatalog }

func (r replicaCatalog) Set(_ context.Context, key string, enabled bool) error {
	r.c.mu.Lock()
	if r.c.disabled == nil {
		r.c.disabled = map[string]bool{}
	}
	if enabled {
		delete(r.c.disabled, key)
	} else {
		r.c.disabled[key] = true
	}
	watchers, lose := slices.Clone(r.c.watchers), r.c.lose
	r.c.mu.Unlock()
	if !lose {
		for _, w := range watchers {
			w() // every replica, its own echo too: the server must not notify twice
		}
	}
	return nil
}

func (r replicaCatalog) Disabled(context.Context) (map[string]bool, error) {
	r.c.mu.Lock()
	defer r.c.mu.Unlock()
	out := map[string]bool{}
	for k := range r.c.disabled {
		out[k] = true
	}
	return out, nil
}

func (r replicaCatalog) Watch(changed func()) func() {
	r.c.mu.Lock()
	r.c.watchers = append(r.c.watchers, changed)
	r.c.mu.Unlock()
	changed()
	return func() {}
}

// reread calls every replica's watcher, as a periodic re-read does.
func (c *sharedCatalog) reread() {
	c.mu.Lock()
	watchers := slices.Clone(c.watchers)
	c.mu.Unlock()
	for _, w := range watchers {
		w()
	}
}

// Each change, made on either replica, is heard once by every session of
// every replica, over the sessions of 2025-11-25 and on the
// subscriptions/listen streams of 2026-07-28 that asked; a change lost on its way is
// made by the next re-read, heard once too; re-reads that find nothing new
// and a switch to the state already in force tell no one.
func TestListChangedOncePerSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	shared := &sharedCatalog{}
	type client struct {
		who string
		h   *heard
	}
	var replicas []*mcpcore.Server
	var clients []client
	for _, r := range []string{"r1", "r2"} {
		srv := newSwitchServer(t, &mcpcore.ServerOptions{Catalog: replicaCatalog{shared}, Config: mcpcore.Config{Stateless: true}}, switchable()...)
		replicas = append(replicas, srv)
		url := serveHTTP(t, srv)
		for i := range 2 {
			h := newHeard()
			wiretest.ConnectWith(t, srv.MCPServer(), h.options(), "2025-11-25")
			clients = append(clients, client{r + " session " + string(rune('a'+i)), h})
		}
		h := newHeard()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, h.options()).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		clients = append(clients, client{r + " listen stream", h})
	}
	// The listen streams are open once acknowledged, which the client does
	// not tell: resource list changes, which the test does not count
	// otherwise, until each client heard one, say they are.
	for on := false; ; on = !on {
		if err := replicas[0].SetEnabled(ctx, mcpcore.KindResource, "switch://note", on); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		ready := true
		for _, c := range clients {
			c.h.mu.Lock()
			ready = ready && c.h.resources > 0
			c.h.mu.Unlock()
		}
		if ready {
			break
		}
	}

	// r1 switches the tool off: each hears one tools list_changed.
	if err := replicas[0].SetEnabled(ctx, mcpcore.KindTool, "secret", false); err != nil {
		t.Fatal(err)
	}
	for _, c := range clients {
		c.h.await(t, c.who, 1, 0)
	}
	// Switching it off again, and re-reads finding nothing new, tell no
	// one; r2 switching it on tells each once more.
	if err := replicas[1].SetEnabled(ctx, mcpcore.KindTool, "secret", false); err != nil {
		t.Fatal(err)
	}
	shared.reread()
	if err := replicas[1].SetEnabled(ctx, mcpcore.KindTool, "secret", true); err != nil {
		t.Fatal(err)
	}
	for _, c := range clients {
		c.h.await(t, c.who, 2, 0)
	}
	// A change whose message is lost reaches r2 with the next re-read.
	shared.mu.Lock()
	shared.lose = true
	shared.mu.Unlock()
	if err := replicas[0].SetEnabled(ctx, mcpcore.KindTool, "secret", false); err != nil {
		t.Fatal(err)
	}
	if replicas[1].Enabled(mcpcore.KindTool, "secret") != true {
		t.Fatal("r2 learnt of a change whose message was lost before any re-read")
	}
	shared.reread()
	if replicas[1].Enabled(mcpcore.KindTool, "secret") {
		t.Error("r2 still serves the tool after a re-read of the catalog")
	}
	// A prompt change, after, is the barrier: no tools list_changed more.
	if err := replicas[0].SetEnabled(ctx, mcpcore.KindPrompt, "secret-brief", false); err != nil {
		t.Fatal(err)
	}
	shared.reread()
	for _, c := range clients {
		c.h.await(t, c.who, 3, 1)
	}
}

var _ fleet.Catalog = replicaCatalog{}
