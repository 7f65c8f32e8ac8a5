package mcpcore_test

// TestHTTPWireGolden pins the wire of Server.Handler: for each request of
// a script, in both session modes and every protocol version, the status
// line, the headers a client reads and the body, as testdata/wire/*.txt
// hold them. A change of the HTTP layer that changes a byte a client sees
// fails it with the difference; go test -run TestHTTPWireGolden -update
// rewrites the files, for a change that is meant.

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The inputs and outputs of the definitions the golden files show.
type (
	wireText struct {
		Text string `json:"text" jsonschema:"the text"`
	}
	wireID struct {
		ID string `json:"id" jsonschema:"the item's id"`
	}
	wireRegion struct {
		Region string `json:"region,omitempty"`
	}
)

var wireNoItem = mcpcore.Failure{
	Reason:   "no_item",
	Code:     mcperr.CodeNotFound,
	When:     "No item has that id.",
	Recovery: "List the items first.",
}

// A wireGate holds the calls of the tool "wait" until it is released.
type wireGate struct {
	started chan struct{} // one value for each call that began
	release chan struct{}
}

func newWireGate() *wireGate {
	return &wireGate{started: make(chan struct{}, 16), release: make(chan struct{})}
}

// started1 waits for a call of "wait" to begin.
func (g *wireGate) started1() error {
	select {
	case <-g.started:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("the call of wait never began")
	}
}

// open releases the calls of "wait".
func (g *wireGate) open() error {
	close(g.release)
	return nil
}

// wireDefinitions are the definitions of the servers of the golden files:
// a tool that succeeds, one that fails as its contract declares, one with
// an x-mcp-header argument, one that may run as a task (so that the
// tasks/* methods exist), one that waits for gate, a resource and a
// prompt.
func wireDefinitions(gate *wireGate) []mcpcore.Definition {
	return []mcpcore.Definition{
		mcpcore.Tool[wireText, wireText]{Name: "echo", Description: "Says its text back.",
			Handler: func(_ *mcpcore.Context, in wireText) (wireText, error) { return in, nil }},
		mcpcore.Tool[wireID, wireText]{Name: "lookup", Description: "Finds no item.", Errors: []mcpcore.Failure{wireNoItem},
			Handler: func(ctx *mcpcore.Context, in wireID) (wireText, error) { return wireText{}, ctx.Fail(wireNoItem, "") }},
		mcpcore.Tool[wireRegion, wireText]{Name: "locate", Description: "Says its region back.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`),
			Handler:     func(_ *mcpcore.Context, in wireRegion) (wireText, error) { return wireText{in.Region}, nil }},
		mcpcore.Tool[wireText, wireText]{Name: "job", Description: "May run as a task.",
			Task:    mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: time.Hour},
			Handler: func(_ *mcpcore.Context, in wireText) (wireText, error) { return in, nil }},
		mcpcore.Tool[wireText, wireText]{Name: "wait", Description: "Waits to be released.",
			Handler: func(ctx *mcpcore.Context, in wireText) (wireText, error) {
				gate.started <- struct{}{}
				select {
				case <-gate.release:
				case <-ctx.Done():
				}
				return in, nil
			}},
		mcpcore.Resource[wireID, string]{Name: "doc", URITemplate: "wire://docs/{id}", MIMEType: "text/plain",
			Handler: func(_ *mcpcore.Context, p wireID) (string, error) { return "Doc " + p.ID, nil }},
		mcpcore.Prompt[wireText]{Name: "outline", Description: "Outlines a text.",
			Handler: func(_ *mcpcore.Context, a wireText) ([]*mcp.PromptMessage, error) {
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Outline: " + a.Text}}}, nil
			}},
	}
}

// A wireServer is what a script sends its requests to.
type wireServer struct {
	*mcpcore.Server
	gate *wireGate
}

func TestHTTPWireGolden(t *testing.T) {
	t.Parallel()
	for _, g := range []struct {
		name string
		env  map[string]string
		auth bool
		// bodyTimeout, when set, is the time to send a body.
		bodyTimeout time.Duration
		run         func(srv wireServer) []exchange
	}{
		{name: "stateful", run: statefulWire},
		{name: "stateless", env: map[string]string{"MCP_SESSION_MODE": "stateless"}, run: statelessWire},
		{name: "auth", auth: true, env: map[string]string{"MCP_HTTP_MAX_SESSIONS_PER_SUBJECT": "1"}, run: authWire},
		{name: "auth-stateless", auth: true, env: map[string]string{"MCP_SESSION_MODE": "stateless"}, run: authStatelessWire},
		{name: "limits", env: map[string]string{"MCP_HTTP_MAX_SESSIONS": "1", "MCP_HTTP_MAX_BODY_BYTES": "1024"},
			bodyTimeout: 300 * time.Millisecond, run: limitsWire},
		{name: "draining", run: drainingWire(false)},
		{name: "draining-stateless", env: map[string]string{"MCP_SESSION_MODE": "stateless"}, run: drainingWire(true)},
	} {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			maps.Copy(env, g.env)
			var opts *mcpcore.ServerOptions
			if g.auth {
				env["MCP_AUTH_MODE"], env["MCP_AUTH_SECRET_KEY"] = "jwt", testSecret
				env["MCP_AUTH_REQUIRED_SCOPES"] = "mcp:use"
				env["MCP_SERVER_RESOURCE_IDENTIFIER"] = wireResource
				opts = authedOptions(t, env)
			} else {
				opts = &mcpcore.ServerOptions{Config: configOf(t, env)}
			}
			gate := newWireGate()
			srv, _ := newServer(t, opts, wireDefinitions(gate)...)
			if g.bodyTimeout > 0 {
				mcpcore.SetBodyTimeout(srv, g.bodyTimeout)
			}
			script := newWireScript(t, srv.Handler(), wireTokens(t))
			script.run(g.run(wireServer{srv, gate}))
			compareGolden(t, g.name+".txt", script.out.Bytes())
		})
	}
}

// wireResource is the resource identifier of the servers with tokens, their
// audience.
const wireResource = "http://127.0.0.1:3920/mcp"

// wireTokens are the bearer tokens the scripts name, by name.
func wireTokens(t *testing.T) map[string]string {
	t.Helper()
	sign := func(secret string, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	hour := time.Now().Add(time.Hour).Unix()
	claims := func(sub, scope string, exp int64, aud string) jwt.MapClaims {
		c := jwt.MapClaims{"sub": sub, "scope": scope, "aud": aud}
		if exp != 0 {
			c["exp"] = exp
		}
		return c
	}
	return map[string]string{
		"alice":    sign(testSecret, claims("alice", "mcp:use", hour, wireResource)),
		"bob":      sign(testSecret, claims("bob", "mcp:use", hour, wireResource)),
		"expired":  sign(testSecret, claims("alice", "mcp:use", time.Now().Add(-time.Hour).Unix(), wireResource)),
		"noscope":  sign(testSecret, claims("alice", "other", hour, wireResource)),
		"forged":   sign(strings.Repeat("x", 32), claims("alice", "mcp:use", hour, wireResource)),
		"noexp":    sign(testSecret, claims("alice", "mcp:use", 0, wireResource)),
		"otheraud": sign(testSecret, claims("alice", "mcp:use", hour, "https://elsewhere.example/mcp")),
	}
}

// The bodies of the scripts.

// call is a JSON-RPC request; params "" leaves them out.
func call(id any, method, params string) string {
	idJSON, _ := json.Marshal(id)
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q}`, idJSON, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, idJSON, method, params)
}

// notify is a JSON-RPC notification; params "" leaves them out.
func notify(method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params)
}

// initialize asks for a session of version.
func initialize(id int, version string) string {
	return call(id, "initialize", `{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"wire","version":"1.0.0"}}`)
}

// meta2026 is the _meta of a request of protocol 2026-07-28, inside its
// params' braces.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// call2026 is a request of protocol 2026-07-28 with params (the members
// without braces, "" for none) and the _meta of that version.
func call2026(id int, method, params string) string {
	if params != "" {
		params += ","
	}
	return call(id, method, "{"+params+meta2026+"}")
}

// The headers of the scripts.

// onSession are the headers of a request in the session named sid, of
// version.
func onSession(sid, version string) []string {
	return []string{"Mcp-Session-Id: {" + sid + "}", "Mcp-Protocol-Version: " + version}
}

// std2026 are the standard headers of a request of protocol 2026-07-28:
// its version, its method, and its name when it has one.
func std2026(method, name string, more ...string) []string {
	h := []string{"Mcp-Protocol-Version: 2026-07-28", "Mcp-Method: " + method}
	if name != "" {
		h = append(h, "Mcp-Name: "+name)
	}
	return append(h, more...)
}

func with(h []string, more ...string) []string { return append(h, more...) }

const (
	echoArgs   = `{"name":"echo","arguments":{"text":"hi"}}`
	lookupArgs = `{"name":"lookup","arguments":{"id":"7"}}`
	docArgs    = `{"uri":"wire://docs/a"}`
	promptArgs = `{"name":"outline","arguments":{"text":"tides"}}`
)
