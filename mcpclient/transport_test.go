package mcpclient_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TestTransportKeepsTaskID: a CreateTaskResult reaches the caller of
// CallTool with its fields, under _meta["mcpcore/task"], beside the
// server's own _meta; a result passes unchanged.
func TestTransportKeepsTaskID(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := &taskServer{}
			cs := tr.dial(t, s, nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "compute", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			got := mcpclient.TaskOf(res)
			want := &mcpclient.Task{TaskID: "T1QJ5V2XHKZ7TQ4M6W3LRB5Y2A", Status: "working", CreatedAt: "2026-12-01T10:30:00.123Z",
				LastUpdatedAt: "2026-12-01T10:30:00.123Z", TTLMs: "60000", PollIntervalMs: "1"}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("TaskOf = %+v, want %+v", got, want)
			}
			raw, _ := json.Marshal(res.Meta[mcpclient.TaskMetaKey])
			var kept map[string]any
			json.Unmarshal(raw, &kept)
			if kept["resultType"] != "task" || kept["_meta"] != nil || len(kept) != 7 {
				t.Errorf(`_meta["mcpcore/task"] = %s, want the CreateTaskResult but its _meta`, raw)
			}
			if info, _ := res.Meta["io.modelcontextprotocol/serverInfo"].(map[string]any); info["name"] != "tasks" {
				t.Errorf("_meta = %v, want the server's serverInfo kept", res.Meta)
			}
			if res.IsError || len(res.Content) != 0 || res.StructuredContent != nil {
				t.Errorf("result = %+v, want no content", res)
			}
			if got := s.calls("tools/call"); !reflect.DeepEqual(got, []string{"tools/call compute declared"}) {
				t.Errorf("the server saw %v, want one tools/call that declared the extension", got)
			}
			// A client that did not declare it gets the result.
			plain := dialPlain(t, s, tr.name)
			res, err = plain.CallTool(context.Background(), &mcp.CallToolParams{Name: "compute", Arguments: map[string]any{}})
			if err != nil || mcpclient.TaskOf(res) != nil || res.StructuredContent == nil {
				t.Errorf("CallTool without the extension = %+v, %v; want the result", res, err)
			}
		})
	}
}

// dialPlain connects a client of the SDK's own, which does not declare
// the extension, through the same wrapping.
func dialPlain(t *testing.T, s *taskServer, transport string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "plain"}, nil)
	if transport == "in-memory" {
		return connectInMemory(t, s, c)
	}
	return connectHTTP(t, s, c, mcpclient.HTTPClient(nil))
}

// TestTaskMethods: GetTask, UpdateTask and CancelTask declare the
// extension, and the server's errors are *mcperr.Error.
func TestTaskMethods(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := &taskServer{}
			cs := tr.dial(t, s, nil)
			ctx := context.Background()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "forever", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			id := mcpclient.TaskOf(res).TaskID
			d, err := mcpclient.GetTask(ctx, cs, id)
			if err != nil || d.Status != "working" || d.TaskID != id {
				t.Errorf("GetTask = %+v, %v", d, err)
			}
			if err := mcpclient.UpdateTask(ctx, cs, id, json.RawMessage(`{}`)); err != nil {
				t.Errorf("UpdateTask: %v", err)
			}
			if err := mcpclient.CancelTask(ctx, cs, id); err != nil {
				t.Errorf("CancelTask: %v", err)
			}
			if d, err := mcpclient.GetTask(ctx, cs, id); err != nil || d.Status != "cancelled" {
				t.Errorf("GetTask after cancel = %+v, %v", d, err)
			}
			_, err = mcpclient.GetTask(ctx, cs, "nope")
			check(t, asError(t, err), &want{mcperr.CodeInvalidParams, errUnknownTask.Message, ""})
		})
	}
	// A client of the SDK's own cannot send them, and is told how.
	s := &taskServer{}
	cs := dialPlain(t, s, "in-memory")
	_, err := mcpclient.GetTask(context.Background(), cs, "T1")
	if e := asError(t, err); e.Code() != mcperr.CodeInvalidRequest || !strings.Contains(e.Message(), "mcpclient.NewClient") {
		t.Errorf("GetTask on an SDK client = %v %q, want InvalidRequest naming mcpclient.NewClient", e.Code(), e.Message())
	}
}
