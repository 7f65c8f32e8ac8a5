package mcpcore_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// TestUpstreamFailureLogsWhatTheClientGets: the record of a failure built
// by mcperr.FromResponse (an upstream's 500) carries the upstream's
// status, URL and body excerpt, as the client's data does: the operator
// learns at least what the client did.
func TestUpstreamFailureLogsWhatTheClientGets(t *testing.T) {
	srv, logs, _ := notesServer(t)
	cs := wiretest.Connect(t, srv.MCPServer())
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read_note", Arguments: map[string]any{"path": "broken.md"}})
	if err != nil || !res.IsError {
		t.Fatalf("read_note(broken.md) = %v, %v", res, err)
	}
	var sent struct {
		Error struct {
			Data map[string]any `json:"data"`
		} `json:"error"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &sent); err != nil {
		t.Fatal(err)
	}
	failures := logs.Failures(t, "read_note")
	if len(failures) != 1 {
		t.Fatalf("%d failure records:\n%s", len(failures), logs.String())
	}
	up, _ := failures[0]["upstream"].(map[string]any)
	data := sent.Error.Data
	want := map[string]any{"status": data["status"], "statusText": data["statusText"], "url": data["url"], "body": data["body"]}
	if !reflect.DeepEqual(up, want) || !strings.Contains(up["body"].(string), "vault index is corrupt") ||
		!strings.HasSuffix(up["url"].(string), "/vault/broken.md") || up["status"] != 500.0 {
		t.Errorf("the record's upstream is %v\nthe client's data %v", up, data)
	}
}
