//lint:file-ignore SA1019 log notifications, deprecated in a future protocol version, are what this file tests.

package mcpcore_test

// Request-scoped logs: every record of a call carries its request, the
// client gets the records it asked for as notifications, redacted the same
// way, and a failure tells the client only what the result does.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

type secretInput struct {
	Token string `json:"token" jsonschema:"an access token"`
	Fail  bool   `json:"fail,omitempty" jsonschema:"fail after logging"`
}

// notifications collects the log notifications a client receives.
type notifications struct {
	mu   sync.Mutex
	msgs []*mcp.LoggingMessageParams
}

func (n *notifications) handle(_ context.Context, req *mcp.LoggingMessageRequest) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, req.Params)
}

func (n *notifications) all() []*mcp.LoggingMessageParams {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]*mcp.LoggingMessageParams(nil), n.msgs...)
}

func TestRequestScopedLogs(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[secretInput, okOutput]{
		Name:   "echo_secret",
		Errors: []mcpcore.Failure{noMatch},
		Handler: func(ctx *mcpcore.Context, in secretInput) (okOutput, error) {
			ctx.Logger().Info("handling", "input", in, "token", in.Token)
			// A service with only a context.Context logs to the request too.
			mcpcore.Logger(ctx).Debug("service step")
			_, _ = mcperr.TryCatch(ctx, mcperr.TryCatchOptions{Operation: "Store.Get"}, func(context.Context) (int, error) {
				return 0, errors.New("connection refused")
			})
			if in.Fail {
				return okOutput{}, ctx.Fail(noMatch, "No items", ctx.RecoveryFor(noMatch), mcperr.WithCause(errors.New("db said token="+in.Token)))
			}
			return okOutput{OK: true}, nil
		},
	}
	srv, logs := newServer(t, nil, tool)
	var got notifications
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCPServer().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{LoggingMessageHandler: got.handle}).
		Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}

	const secret = "tok-9f8e7d6c5b4a"
	// Under newer protocol versions the level travels with each request.
	meta := mcp.Meta{mcp.MetaKeyLogLevel: "info"}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo_secret", Arguments: map[string]any{"token": secret}, Meta: meta}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo_secret", Arguments: map[string]any{"token": secret, "fail": true}, Meta: meta})
	if err != nil || !res.IsError {
		t.Fatalf("the failing call: %v %v", res, err)
	}

	// Server records: each carries its request; the two calls differ.
	ids := map[string]bool{}
	for _, r := range logs.Records(t) {
		if r["operation"] != "tool:echo_secret" {
			continue
		}
		id, _ := r["requestId"].(string)
		if len(id) != 11 || id[5] != '-' {
			t.Errorf("record without a request id: %v", r)
		}
		ids[id] = true
	}
	if len(ids) != 2 {
		t.Errorf("request ids %v, want one per call", ids)
	}
	if !logs.Has(t, "service step") || !logs.Has(t, "Finished tool:echo_secret") {
		t.Errorf("missing the service's record or the completion record:\n%s", logs)
	}
	for _, r := range logs.Records(t) {
		if strings.HasPrefix(r["msg"].(string), "Error in Store.Get") && r["level"] != "DEBUG" {
			t.Errorf("TryCatch inside a call logged at %v, want DEBUG: %v", r["level"], r)
		}
	}

	// Client notifications: at or above info, named after the server, and
	// the failure as the result tells it.
	mcptest.WaitFor(t, "the failure's notification", func() bool {
		for _, m := range got.all() {
			if d, ok := m.Data.(map[string]any); ok && d["msg"] == "Error in tool:echo_secret: No items" {
				return true
			}
		}
		return false
	})
	var handling, failure map[string]any
	for _, m := range got.all() {
		if m.Logger != "test-server" {
			t.Errorf("notification logger %q, want the server's name", m.Logger)
		}
		if m.Level == "debug" {
			t.Errorf("a debug record reached a client at info: %v", m.Data)
		}
		d, _ := m.Data.(map[string]any)
		switch d["msg"] {
		case "handling":
			handling = d
		case "Error in tool:echo_secret: No items":
			failure = d
			if m.Level != "error" {
				t.Errorf("failure notification at %s", m.Level)
			}
		}
	}
	if handling == nil || handling["operation"] != "tool:echo_secret" || handling["requestId"] == nil {
		t.Errorf("handler record as notified: %v", handling)
	}
	// The failure: code and message, nothing the client did not get.
	for k := range failure {
		switch k {
		case "time", "msg", "code", "requestId", "operation", "sessionId":
		default:
			t.Errorf("failure notification carries %q: %v", k, failure)
		}
	}
	if failure["code"] != float64(mcperr.CodeNotFound) || failure["requestId"] == nil {
		t.Errorf("failure notification %v; want the code and the request", failure)
	}

	// The token is in no record and no notification.
	if strings.Contains(logs.String(), secret) {
		t.Errorf("the token reached the server log:\n%s", logs)
	}
	for _, m := range got.all() {
		if strings.Contains(wiretest.Canonical(t, m.Data), secret) {
			t.Errorf("the token reached a notification: %v", m.Data)
		}
	}
}

// Over HTTP, a call's notifications travel on the call's own stream: a
// client that opens no standalone stream still gets them.
func TestLogNotificationsOverHTTP(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[secretInput, okOutput]{
		Name:   "logs",
		Errors: []mcpcore.Failure{noMatch},
		Handler: func(ctx *mcpcore.Context, in secretInput) (okOutput, error) {
			ctx.Logger().Info("hello")
			return okOutput{}, ctx.Fail(noMatch, "No items", ctx.RecoveryFor(noMatch))
		},
	}
	srv, _ := newServer(t, nil, tool)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	var got notifications
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{LoggingMessageHandler: got.handle}).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + mcpcore.HTTPPath, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "logs", Arguments: map[string]any{"token": "x"},
		Meta: mcp.Meta{mcp.MetaKeyLogLevel: "info"}}); err != nil {
		t.Fatal(err)
	}
	mcptest.WaitFor(t, "both notifications", func() bool {
		msgs := map[string]bool{}
		for _, m := range got.all() {
			if d, ok := m.Data.(map[string]any); ok {
				msgs[d["msg"].(string)] = true
			}
		}
		return msgs["hello"] && msgs["Error in tool:logs: No items"]
	})
}

// A TryCatch record logged through the request's logger reaches a client
// that set a log level, redacted as the server's record is, and without
// the input captured for diagnostics, which is for the server's log only.
func TestTryCatchRecordsMirroredToTheClient(t *testing.T) {
	t.Parallel()
	const passwd, apiKey = "pw-5e4d3c2b1a", "xk-0a1b2c3d4e"
	tool := mcpcore.Tool[secretInput, okOutput]{
		Name: "upstream",
		Handler: func(ctx *mcpcore.Context, in secretInput) (okOutput, error) {
			_, err := mcperr.TryCatch(ctx, mcperr.TryCatchOptions{Operation: "NCBI.Fetch", Logger: mcpcore.Logger(ctx),
				Input: map[string]any{"query": "asthma", "password": passwd, "apiKey": apiKey}}, func(context.Context) (int, error) {
				return 0, errors.New("connection refused; password=" + passwd)
			})
			return okOutput{}, err
		},
	}
	srv, logs := newServer(t, nil, tool)
	var got notifications
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCPServer().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{LoggingMessageHandler: got.handle}).
		Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "upstream", Arguments: map[string]any{"token": "t"}, Meta: mcp.Meta{mcp.MetaKeyLogLevel: "debug"}}); err != nil || !res.IsError {
		t.Fatalf("the call: %v %v", res, err)
	}
	var mirrored *mcp.LoggingMessageParams
	mcptest.WaitFor(t, "the TryCatch record at the client", func() bool {
		for _, m := range got.all() {
			if b, _ := json.Marshal(m.Data); strings.Contains(string(b), "NCBI.Fetch") {
				mirrored = m
				return true
			}
		}
		return false
	})
	b, _ := json.Marshal(mirrored)
	if strings.Contains(string(b), passwd) || strings.Contains(string(b), apiKey) || strings.Contains(string(b), `"input"`) {
		t.Errorf("the client's record carries the input or a secret: %s", b)
	}
	if !strings.Contains(logs.String(), `"input":{`) {
		t.Errorf("the server's record lost the input:\n%s", logs)
	}
}
