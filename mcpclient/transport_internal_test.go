package mcpclient

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestKeepTaskLeavesResults: only a CreateTaskResult is rewritten; any
// other result passes byte for byte.
func TestKeepTaskLeavesResults(t *testing.T) {
	for _, result := range []string{
		`{"content":[{"type":"text","text":"resultType task"}],"resultType":"complete"}`,
		`{"content":[],"structuredContent":{"resultType":"task"}}`,
		`{}`,
	} {
		if got := string(keepTask(json.RawMessage(result))); got != result {
			t.Errorf("keepTask(%s) = %s", result, got)
		}
	}
	got := keepTask(json.RawMessage(`{"resultType":"task","taskId":"A","status":"working","_meta":7}`))
	want := `{"content":[],"_meta":{"mcpcore/task":{"resultType":"task","status":"working","taskId":"A"}}}`
	if string(got) != want {
		t.Errorf("keepTask = %s, want %s", got, want)
	}
}

// TestNewClientKeepsOptions: declaring the extension leaves the caller's
// options as they were, and keeps the capabilities they give.
func TestNewClientKeepsOptions(t *testing.T) {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension("example/other", nil)
	opts := &mcp.ClientOptions{Capabilities: caps}
	got := declareTasks(opts)
	if len(caps.Extensions) != 1 || opts.Capabilities != caps {
		t.Errorf("the caller's options changed: %v", caps.Extensions)
	}
	if _, ok := got.Capabilities.Extensions["example/other"]; !ok || len(got.Capabilities.Extensions) != 2 {
		t.Errorf("extensions = %v, want example/other and %s", got.Capabilities.Extensions, TasksExtension)
	}
	d := declareTasks(nil)
	//lint:ignore SA1019 roots is in the SDK's default capabilities.
	if d.Capabilities.Extensions[TasksExtension] == nil || d.Capabilities.RootsV2 == nil {
		t.Errorf("declareTasks(nil) = %+v, want the SDK's defaults and the extension", d.Capabilities)
	}
}
