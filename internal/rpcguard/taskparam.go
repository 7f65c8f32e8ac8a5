package rpcguard

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TaskParamsMeta is the _meta key under which LiftTask puts the task
// params of a tools/call (MCP 2025-11-25's params.task), which the SDK's
// CallToolParams has no field for and would drop.
const TaskParamsMeta = "mcpcore/taskParams"

// LiftTask returns the params of a tools/call with their "task" member
// moved into _meta[TaskParamsMeta], so that the server still sees it once
// the SDK has decoded them; params without one, or that are not an
// object, are returned as they are. It costs time linear in the params'
// size, and only for params that hold a task.
func LiftTask(params json.RawMessage) json.RawMessage {
	task := Member(params, "task")
	if task == nil {
		return params
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(params, &members) != nil {
		return params
	}
	meta := map[string]json.RawMessage{}
	if m := members["_meta"]; len(m) > 0 && string(m) != "null" {
		if json.Unmarshal(m, &meta) != nil {
			return params // the SDK refuses it as it stands
		}
	}
	meta[TaskParamsMeta] = task
	delete(members, "task")
	var err error
	if members["_meta"], err = json.Marshal(meta); err != nil {
		return params
	}
	lifted, err := json.Marshal(members)
	if err != nil {
		return params
	}
	return lifted
}

// LiftTaskInBody returns the body of an HTTP POST with LiftTask applied to
// the tools/call it holds, or body itself when it holds none with a task.
func LiftTaskInBody(body []byte) []byte {
	_, method, params, ok := Request(body)
	if !ok || method != "tools/call" || Member(params, "task") == nil {
		return body
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return body
	}
	r, ok := msg.(*jsonrpc.Request)
	if !ok {
		return body
	}
	r.Params = LiftTask(r.Params)
	out, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return body
	}
	return out
}
