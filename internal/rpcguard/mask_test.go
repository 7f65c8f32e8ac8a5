package rpcguard

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// guardSecret is kept by the test below; nothing else here writes it.
const guardSecret = "rpcguard-test-secret-9Zq"

// TestConnMasksKeptSecrets: whatever the SDK writes (an answer, an error,
// a notification of the server's), the secrets the process keeps do not
// reach the stream, in any form.
func TestConnMasksKeptSecrets(t *testing.T) {
	if err := redact.Keep(guardSecret); err != nil {
		t.Fatal(err)
	}
	in, out, c := decodedPipe(t)
	go io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`+"\n")
	req := readMsg(t, c).(*jsonrpc.Request)
	result, _ := json.Marshal(map[string]any{"protocolVersion": "2025-06-18", "instructions": "the key `" + guardSecret + "` is not allowed",
		"b64": base64.StdEncoding.EncodeToString([]byte(guardSecret))})
	notice, _ := json.Marshal(map[string]any{"progressToken": 1, "message": "fetched with " + guardSecret})
	for _, msg := range []jsonrpc.Message{
		&jsonrpc.Request{Method: "notifications/progress", Params: notice},
		&jsonrpc.Response{ID: req.ID, Result: result},
	} {
		wrote := make(chan error, 1)
		go func() { wrote <- c.Write(context.Background(), msg) }()
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if err := <-wrote; err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, guardSecret) || strings.Contains(line, base64.StdEncoding.EncodeToString([]byte(guardSecret))[:20]) ||
			strings.Count(line, redact.Marker) == 0 || !json.Valid([]byte(line)) {
			t.Errorf("the stream got %s", line)
		}
	}
}
