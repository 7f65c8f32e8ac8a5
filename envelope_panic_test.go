package mcpcore

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// TestReceiveRecoversPanic: a panic that escapes a method's handler (the
// SDK does not recover it, and over stdio it would end the process's only
// session) is answered with an InternalError that says nothing of the
// panic's value, and logged once, collapsed when it repeats.
func TestReceiveRecoversPanic(t *testing.T) {
	var logs bytes.Buffer
	s, err := NewServer(Info{Name: "p", Version: "1"}, &ServerOptions{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h := s.receive(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		panic("boom: client_secret=hunter2hunter2")
	})
	for range 3 {
		res, err := h(context.Background(), "tools/list", &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}})
		if res != nil {
			t.Errorf("result %v beside a panic", res)
		}
		w, ok := errchain.As[*jsonrpc.Error](err)
		if !ok || w.Code != jsonrpc.CodeInternalError {
			t.Fatalf("answer %v, want an InternalError", err)
		}
		if strings.Contains(w.Message, "boom") || !strings.Contains(w.Message, "tools/list") {
			t.Errorf("message %q: want the method, not the panic's value", w.Message)
		}
	}
	s.repeats.Flush()
	if n := strings.Count(logs.String(), "internal error\","); n != 1 {
		t.Errorf("%d records of the panic, want 1 (then collapsed):\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), "hunter2") {
		t.Errorf("the log holds the secret:\n%s", logs.String())
	}
}
