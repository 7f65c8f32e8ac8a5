package rpcguard

import (
	"bytes"
	"encoding/json"
)

// TaskParamsMeta is the _meta key under which LiftTask puts the task
// params of a tools/call (MCP 2025-11-25's params.task), which the SDK's
// CallToolParams has no field for and would drop.
const TaskParamsMeta = "mcpcore/taskParams"

// LiftTask returns the params of a tools/call with their "task" member
// copied into _meta[TaskParamsMeta], so that the server still sees it once
// the SDK has decoded them (the guard's connection and the HTTP body guard
// call it); params without one are returned as they are. The params must
// be valid JSON, as the guard has checked them: the entry is spliced in,
// the bytes around it kept as the client wrote them (the SDK ignores the
// "task" member it has no field for), in time linear in their size.
func LiftTask(params json.RawMessage) json.RawMessage {
	if first(params) != '{' {
		return params
	}
	task := Member(params, "task")
	if task == nil {
		return params
	}
	entry := append([]byte(`"`+TaskParamsMeta+`":`), task...)
	meta := Member(params, "_meta")
	var at int // where the entry goes: just inside an object's brace
	var wrap bool
	switch {
	case meta == nil:
		at, wrap = bytes.IndexByte(params, '{')+1, true
	case first(meta) == '{':
		// meta is a part of params (Member slices it), which starts
		// where their capacities differ.
		off := cap(params) - cap(meta)
		if off < 0 || off+len(meta) > len(params) || !bytes.Equal(params[off:off+len(meta)], meta) {
			return params
		}
		at = off + bytes.IndexByte(meta, '{') + 1
	default:
		return params // a _meta that is not an object: the SDK refuses it
	}
	out := make([]byte, 0, len(params)+len(entry)+12)
	out = append(out, params[:at]...)
	if wrap {
		out = append(out, `"_meta":{`...)
		out = append(out, entry...)
		out = append(out, '}', ',')
	} else {
		out = append(out, entry...)
		if first(params[at:]) != '}' {
			out = append(out, ',')
		}
	}
	return append(out, params[at:]...)
}

// LiftTaskInBody returns the body of an HTTP POST with LiftTask applied to
// the tools/call it holds, the rest as it was written, or body itself when
// it holds none with a task.
func LiftTaskInBody(body []byte) []byte {
	_, method, params, ok := Request(body)
	if !ok || method != "tools/call" || params == nil {
		return body
	}
	lifted := LiftTask(params)
	off := cap(body) - cap(params) // params is a part of body
	if len(lifted) == len(params) || off < 0 || off+len(params) > len(body) {
		return body
	}
	out := make([]byte, 0, len(body)+len(lifted)-len(params))
	out = append(out, body[:off]...)
	out = append(out, lifted...)
	return append(out, body[off+len(params):]...)
}
