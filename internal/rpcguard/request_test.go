package rpcguard

import "testing"

func TestRequestHandsOverParams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body, id, method, params string
		ok                       bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"a"}}`, "7", "tasks/get", `{"taskId":"a"}`, true},
		{` {"params" : [1, 2] ,"id":"x","method":"m","jsonrpc":"2.0"} `, `"x"`, "m", `[1, 2]`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "1", "ping", "", true},
		{`{"jsonrpc":"2.0","method":"notifications/x","params":{}}`, "", "", "", false},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "", "", "", false},
	} {
		id, method, params, ok := Request([]byte(tc.body))
		if string(id) != tc.id || method != tc.method || string(params) != tc.params || ok != tc.ok {
			t.Errorf("Request(%s) = %s, %q, %s, %v", tc.body, id, method, params, ok)
		}
	}
}

// TestMemberReadsAsTheSDKDecodes: the value Member finds is the one the
// SDK's decoder puts in a field tagged with that name.
func TestMemberReadsAsTheSDKDecodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ obj, want string }{
		{`{"taskId":"a"}`, `"a"`},
		{`{"taskId":"a","taskId":"b"}`, `"b"`}, // the last counts
		{`{"task\u0049d":"esc"}`, `"esc"`},     // keys compared decoded
		{`{"TaskId":"a"}`, ""},                 // and case-sensitively
		{`{"x":{"taskId":"inner"}}`, ""},       // only the object's own members
		{`{"x":"\"taskId\":1","taskId":5}`, "5"},
		{`{"taskId":null}`, "null"},
		{`{}`, ""},
		{`["taskId","a"]`, ""},
		{`null`, ""},
		{``, ""},
	} {
		if got := Member([]byte(tc.obj), "taskId"); string(got) != tc.want || (tc.want == "") != (got == nil) {
			t.Errorf("Member(%s) = %q, want %q", tc.obj, got, tc.want)
		}
	}
}
