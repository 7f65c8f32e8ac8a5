package rpcguard

import (
	"encoding/json"
	"testing"
)

// LiftTask moves params.task into _meta, keeping the rest; params without
// a task, or not an object, stay the same bytes.
func TestLiftTask(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"name":"a","task":{"ttl":5}}`, `{"_meta":{"mcpcore/taskParams":{"ttl":5}},"name":"a"}`},
		{`{"name":"a","_meta":{"progressToken":1},"task":{}}`, `{"_meta":{"mcpcore/taskParams":{},"progressToken":1},"name":"a"}`},
		{`{"name":"a","_meta":null,"task":{}}`, `{"_meta":{"mcpcore/taskParams":{}},"name":"a"}`},
		{`{"name":"a"}`, `{"name":"a"}`},
		{`{"name":"a","_meta":[1],"task":{}}`, `{"name":"a","_meta":[1],"task":{}}`},
		{`[1]`, `[1]`},
	} {
		if got := string(LiftTask(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("LiftTask(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a","task":{"ttl":5}}}`
	if got := string(LiftTaskInBody([]byte(body))); got != `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"mcpcore/taskParams":{"ttl":5}},"name":"a"}}` {
		t.Errorf("LiftTaskInBody = %s", got)
	}
	other := `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"task":{}}}`
	if got := string(LiftTaskInBody([]byte(other))); got != other {
		t.Errorf("LiftTaskInBody of another method = %s", got)
	}
}
