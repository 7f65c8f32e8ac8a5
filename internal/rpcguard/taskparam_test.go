package rpcguard

import (
	"encoding/json"
	"strings"
	"testing"
)

// LiftTask moves params.task into _meta, keeping the rest; params without
// a task, or not an object, stay the same bytes.
func TestLiftTask(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"name":"a","task":{"ttl":5}}`, `{"_meta":{"mcpcore/taskParams":{"ttl":5}},"name":"a","task":{"ttl":5}}`},
		{` { "name":"<a>", "_meta" : { "progressToken":1 },"task":{}}`, ` { "name":"<a>", "_meta" : {"mcpcore/taskParams":{}, "progressToken":1 },"task":{}}`},
		{`{"_meta":{ },"task":1}`, `{"_meta":{"mcpcore/taskParams":1 },"task":1}`},
		{`{"name":"a"}`, `{"name":"a"}`},
		{`{"name":"a","_meta":null,"task":{}}`, `{"name":"a","_meta":null,"task":{}}`},
		{`{"name":"a","_meta":[1],"task":{}}`, `{"name":"a","_meta":[1],"task":{}}`},
		{`[1]`, `[1]`},
	} {
		if got := string(LiftTask(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("LiftTask(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	body := `{"jsonrpc":"2.0", "id":7,"method":"tools/call","params":{"name":"<a>","task":{"ttl":5}} }`
	if got := string(LiftTaskInBody([]byte(body))); got != `{"jsonrpc":"2.0", "id":7,"method":"tools/call","params":{"_meta":{"mcpcore/taskParams":{"ttl":5}},"name":"<a>","task":{"ttl":5}} }` {
		t.Errorf("LiftTaskInBody = %s", got)
	}
	other := `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"task":{}}}`
	if got := string(LiftTaskInBody([]byte(other))); got != other {
		t.Errorf("LiftTaskInBody of another method = %s", got)
	}
}

// BenchmarkLiftTask: the params of a tools/call with 1 MiB of arguments,
// with a task (lifted) and without (scanned only).
func BenchmarkLiftTask(b *testing.B) {
	args := `{"text":"` + strings.Repeat("x", 1<<20) + `"}`
	for _, c := range []struct{ name, params string }{
		{"task", `{"name":"a","arguments":` + args + `,"task":{"ttl":5}}`},
		{"plain", `{"name":"a","arguments":` + args + `}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := json.RawMessage(c.params)
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				LiftTask(p)
			}
		})
	}
}
