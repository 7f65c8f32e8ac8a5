package mcpcore_test

// Definitions their author declares Disabled: listed as disabled, with
// why, on the landing page and the card, and answered with the SDK's
// unknown answer that carries the reason and hint.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

var missingKey = &mcpcore.Disabled{Reason: "credential_missing", Hint: "Set NOTES_API_KEY and restart the server."}

// disabledDefs are switchable's, the secret ones declared Disabled.
func disabledDefs() []mcpcore.Definition {
	tool, note, item, brief := secretTool, secretNote, secretItem, secretBrief
	tool.Disabled, note.Disabled, item.Disabled, brief.Disabled = missingKey, missingKey, missingKey, missingKey
	return []mcpcore.Definition{openTool, tool, note, item, brief}
}

// rpcAnswer is err as the client got it: code, message and data.
func rpcAnswer(t *testing.T, err error) (int64, string, map[string]any) {
	t.Helper()
	var w *jsonrpc.Error
	if !errors.As(err, &w) {
		t.Fatalf("not a JSON-RPC error: %v", err)
	}
	var data map[string]any
	if len(w.Data) > 0 {
		if err := json.Unmarshal(w.Data, &data); err != nil {
			t.Fatalf("data %s: %v", w.Data, err)
		}
	}
	return w.Code, w.Message, data
}

// A use of a definition declared Disabled gets the code and message a
// server without it answers, with the reason and hint as data; it is in
// no list, and cannot be switched on.
func TestDisabledAnswersWithWhy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := newSwitchServer(t, &mcpcore.ServerOptions{}, disabledDefs()...)
	cs := wiretest.Connect(t, srv.MCPServer())
	without := newSwitchServer(t, &mcpcore.ServerOptions{}, openTool, briefPrompt, noteResource)
	plain := wiretest.Connect(t, without.MCPServer())

	why := map[string]any{"reason": "credential_missing", "recovery": map[string]any{"hint": "Set NOTES_API_KEY and restart the server."}}
	withURI := func(uri string) map[string]any {
		m := map[string]any{"uri": uri}
		for k, v := range why {
			m[k] = v
		}
		return m
	}
	uses := []struct {
		name     string
		use      func(*mcp.ClientSession) error
		wantData map[string]any
	}{
		{"call", func(c *mcp.ClientSession) error {
			_, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "secret", Arguments: map[string]any{}})
			return err
		}, why},
		{"get", func(c *mcp.ClientSession) error {
			_, err := c.GetPrompt(ctx, &mcp.GetPromptParams{Name: "secret-brief", Arguments: map[string]string{"topic": "x"}})
			return err
		}, why},
		{"read", func(c *mcp.ClientSession) error {
			_, err := c.ReadResource(ctx, &mcp.ReadResourceParams{URI: "switch://note"})
			return err
		}, withURI("switch://note")},
		{"read of a template's URI", func(c *mcp.ClientSession) error {
			_, err := c.ReadResource(ctx, &mcp.ReadResourceParams{URI: "switch://items/7"})
			return err
		}, withURI("switch://items/7")},
	}
	for _, u := range uses {
		code, msg, data := rpcAnswer(t, u.use(cs))
		wantCode, wantMsg, _ := rpcAnswer(t, u.use(plain))
		if code != wantCode || msg != wantMsg {
			t.Errorf("%s: %d %q; want the unknown answer %d %q", u.name, code, msg, wantCode, wantMsg)
		}
		if got, want := wiretest.Canonical(t, data), wiretest.Canonical(t, u.wantData); got != want {
			t.Errorf("%s: data %s, want %s", u.name, got, want)
		}
	}
	// A name the server does not have is answered as before, without data.
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nonesuch", Arguments: map[string]any{}})
	if _, _, data := rpcAnswer(t, err); data != nil {
		t.Errorf("an unknown tool's answer carries data %v", data)
	}

	got := answersOf(t, cs)
	if !slices.Equal(got.tools, []string{"open"}) || len(got.prompts)+len(got.resources)+len(got.templates) != 0 {
		t.Errorf("disabled definitions are listed: %+v", got)
	}
	if srv.Enabled(mcpcore.KindTool, "secret") {
		t.Error("Enabled of a tool declared Disabled")
	}
	if err := srv.SetEnabled(ctx, mcpcore.KindTool, "secret", true); err == nil || !strings.Contains(err.Error(), "credential_missing") {
		t.Errorf("SetEnabled(on) of a tool declared Disabled: %v; want a refusal that names its reason", err)
	}
	if err := srv.SetEnabled(ctx, mcpcore.KindTool, "secret", false); err != nil {
		t.Errorf("SetEnabled(off) of a tool declared Disabled: %v", err)
	}
	if _, _, data := rpcAnswer(t, uses[0].use(cs)); data == nil {
		t.Error("switched off as well, the tool's answer lost its reason")
	}
}

// A caller from whom Visible hides a disabled definition gets the answers
// of a server without it: no reason, no hint, nothing that says it exists.
func TestDisabledHiddenIsUnknown(t *testing.T) {
	t.Parallel()
	srv := newSwitchServer(t, &mcpcore.ServerOptions{Visible: func(_ context.Context, _ *auth.TokenInfo, d mcpcore.DefinitionInfo) bool {
		return d.Name == "open"
	}}, disabledDefs()...)
	without := newSwitchServer(t, &mcpcore.ServerOptions{}, openTool, briefPrompt, noteResource)
	want := answersOf(t, wiretest.Connect(t, without.MCPServer()))
	want.prompts, want.resources, want.templates = nil, nil, nil
	if got := answersOf(t, wiretest.Connect(t, srv.MCPServer())); !equalAnswers(got, want) {
		t.Errorf("hidden disabled definitions answer\n%+v\nwant, as a server without them,\n%+v", got, want)
	}
}

// NewServer refuses a Disabled that does not say why, or what to do.
func TestDisabledNeedsReasonAndHint(t *testing.T) {
	t.Parallel()
	for _, d := range []*mcpcore.Disabled{{Reason: "x"}, {Hint: "Set it."}, {Reason: " ", Hint: "Set it."}} {
		tool, brief, note := secretTool, secretBrief, secretNote
		tool.Disabled, brief.Disabled, note.Disabled = d, d, d
		for _, def := range []mcpcore.Definition{tool, brief, note} {
			if _, err := mcpcore.NewServer(mcpcore.Info{Name: "t"}, nil, def); err == nil || !strings.Contains(err.Error(), "Disabled needs a Reason and a Hint") {
				t.Errorf("Disabled %+v: %v", d, err)
			}
		}
	}
}

// The landing page and the card show a disabled definition with why, and
// follow the switches made since the server started: one switched off
// leaves them, as it leaves tools/list; one Visible hides from a caller
// without a token is never on them.
func TestPagesShowDisabledAndFollowSwitches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	export := secretTool
	export.Name, export.Disabled = "export", missingKey
	srv := newSwitchServer(t, &mcpcore.ServerOptions{Visible: func(_ context.Context, caller *auth.TokenInfo, d mcpcore.DefinitionInfo) bool {
		return d.Name != "secret-brief" || caller != nil
	}}, openTool, secretTool, export, secretBrief)
	base := strings.TrimSuffix(serveHTTP(t, srv), mcpcore.HTTPPath)
	get := func(path string) string {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return string(b)
	}
	type cardDef struct {
		Name string
		Meta map[string]any `json:"_meta"`
	}
	card := func() (tools, prompts map[string]cardDef) {
		var c struct{ Tools, Prompts []cardDef }
		if err := json.Unmarshal([]byte(get(mcpcore.CardPath)), &c); err != nil {
			t.Fatal(err)
		}
		tools, prompts = map[string]cardDef{}, map[string]cardDef{}
		for _, x := range c.Tools {
			tools[x.Name] = x
		}
		for _, x := range c.Prompts {
			prompts[x.Name] = x
		}
		return tools, prompts
	}

	tools, prompts := card()
	if len(tools) != 3 || len(prompts) != 0 {
		t.Errorf("card: tools %v, prompts %v; want open, secret and export, and no prompt (hidden from a caller without a token)", tools, prompts)
	}
	if got := wiretest.Canonical(t, tools["export"].Meta["mcpcore/disabled"]); got != `{"hint":"Set NOTES_API_KEY and restart the server.","reason":"credential_missing"}` {
		t.Errorf("card: export's _meta %v", tools["export"].Meta)
	}
	if _, ok := tools["secret"].Meta["mcpcore/disabled"]; ok {
		t.Error("card: an enabled tool is marked disabled")
	}
	page := get("/")
	if !strings.Contains(page, `id="tool-export"`) || !strings.Contains(page, `<strong>Disabled:</strong> not served now; a call is refused with the reason <code>credential_missing</code>. Set NOTES_API_KEY and restart the server.</p>`) {
		t.Error("the landing page does not show export as disabled with its reason and hint")
	}
	if strings.Contains(page, "secret-brief") {
		t.Error("the landing page shows a prompt Visible hides from a caller without a token")
	}

	if err := srv.SetEnabled(ctx, mcpcore.KindTool, "secret", false); err != nil {
		t.Fatal(err)
	}
	if tools, _ := card(); len(tools) != 2 || tools["secret"].Name != "" {
		t.Errorf("switched off, secret is still on the card: %v", tools)
	}
	if strings.Contains(get("/"), `id="tool-secret"`) {
		t.Error("switched off, secret is still on the landing page")
	}
	if err := srv.SetEnabled(ctx, mcpcore.KindTool, "secret", true); err != nil {
		t.Fatal(err)
	}
	if tools, _ := card(); tools["secret"].Name != "secret" {
		t.Errorf("switched on again, secret is not on the card: %v", tools)
	}
}
