package mcpcore

// What a failed call sends: the error's message and data, scrubbed and
// encoded once (newWireError, encodeData), and the two answers built from
// them, a tool's error result on both client surfaces (toolResult) and a
// JSON-RPC error (rpcError), chosen by protocolError.

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A wireError is what a failed call sends: the error's message and data as
// they go on the wire, scrubbed and encoded once (see newWireError), so that
// rendering cannot fail and both surfaces send the same text.
type wireError struct {
	err     *mcperr.Error
	message string          // the message sent
	hint    string          // data.recovery.hint as sent, or ""
	data    json.RawMessage // nil when err has no data
	object  json.RawMessage // the JSON-RPC error object, {code, message, data?}
}

// newWireError builds what the failure of e sends. Whoever built e (the
// framework, a handler through Fail, a service through a factory), its
// message and every string of its data are scrubbed of secrets on their way
// out (internal/redact): an upstream URL in a service's own message keeps
// its path but not its api_key. Data keys stay as their author set them;
// the value under a key that names a secret becomes [REDACTED]. A message
// that holds the value of a panic (see [mcperr.HasPanicText]) is withheld
// whole. dropped lists the data JSON could not carry (see encodeData), for
// the log.
func newWireError(e *mcperr.Error) (f *wireError, dropped []string) {
	f = &wireError{err: e, message: wireMessage(e.Message())}
	f.data, f.hint, dropped = wireData(e.Data())
	f.object = wireObject(int64(e.Code()), f.message, f.data)
	return f, dropped
}

// wireMessage is an error's message as the client gets it.
func wireMessage(msg string) string {
	if mcperr.HasPanicText(msg) {
		return mcperr.WithheldMessage
	}
	return redact.String(msg)
}

// wireData encodes data for the wire, scrubbed (see scrubJSON), and
// returns its recovery hint as sent. Data of the shapes failures mostly
// carry (maps, strings, numbers) is scrubbed as it is encoded, in one walk
// (redact.Value); any other goes through encoding/json first.
func wireData(data map[string]any) (encoded json.RawMessage, hint string, dropped []string) {
	if data == nil {
		return nil, "", nil
	}
	if out, hint, ok := redact.Value(data, "recovery", "hint"); ok {
		return out, hint, nil
	}
	raw, dropped := encodeData(data)
	if raw == nil {
		return nil, "", dropped
	}
	encoded, hint, err := redact.Encoded(raw, "recovery", "hint")
	if err != nil {
		return nil, "", dropped // unreachable: raw is what encoding/json made
	}
	return encoded, hint, dropped
}

// scrubJSON returns the JSON value raw with every string scrubbed and the
// value under every key that names a secret redacted (redact.Encoded); nil
// when raw is not JSON. Going through JSON, a string held anywhere (in a
// struct, a typed map) is seen; numbers stay exact.
func scrubJSON(raw json.RawMessage) json.RawMessage {
	encoded, _, err := redact.Encoded(raw)
	if err != nil {
		return nil
	}
	return encoded
}

// wireObject is the JSON-RPC error object, {"code":…,"message":…,"data":…},
// with data, when there is any, as it is: compact JSON that redact.Encoded
// wrote, which encoding/json would only scan again.
func wireObject(code int64, message string, data json.RawMessage) json.RawMessage {
	msg, _ := json.Marshal(message) // a string always encodes
	b := make([]byte, 0, len(`{"code":,"message":,"data":}`)+20+len(msg)+len(data))
	b = strconv.AppendInt(append(b, `{"code":`...), code, 10)
	b = append(append(b, `,"message":`...), msg...)
	if len(data) > 0 {
		b = append(append(b, `,"data":`...), data...)
	}
	return append(b, '}')
}

// toolResult renders a tool failure on both client surfaces, which must
// agree: content[0].text for models and clients that read text, and
// structuredContent.error for programs. isError tells both it failed.
//
//	content[0].text:           Error: <message>[\n\nRecovery: <hint>]
//	structuredContent.error:   {"code":…,"message":…,"data":…}
//
// The Recovery line appears only when data.recovery.hint is a non-empty
// string; data appears only when it was set.
func (f *wireError) toolResult() *mcp.CallToolResult {
	text := contract.Text(f.message, f.hint)
	envelope := append(append([]byte(`{"error":`), f.object...), '}')
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(envelope),
	}
}

// rpcError renders a resource or prompt failure as the JSON-RPC error the
// SDK sends as it is: the same code, message and data as the failure. (The
// SDK keeps only the code of a wrapped *jsonrpc.Error, so it must be
// returned bare.)
func (f *wireError) rpcError() error {
	return &jsonrpc.Error{Code: int64(f.err.Code()), Message: f.message, Data: f.data}
}

// encodeData encodes a failure's data for the wire, once. Data that JSON
// cannot carry (NaN, ±Inf, a func, a chan, a cycle, a MarshalJSON that fails
// or panics) is dropped entry by entry rather than losing the answer: the SDK
// would send nothing at all for a result it cannot encode, and the client
// would wait until its own timeout. The client gets everything that could be
// encoded; dropped lists what was left out and why, for the log. data is
// not nil: no data is no data member (see wireData).
func encodeData(data map[string]any) (encoded json.RawMessage, dropped []string) {
	if b, err := marshal(data); err == nil {
		return b, nil
	}
	clean, _ := encodable(data, "data", &dropped, map[uintptr]bool{})
	b, err := marshal(clean)
	if err != nil {
		// Unreachable: every value left passed marshal on its own.
		return nil, append(dropped, "data: "+err.Error())
	}
	return b, dropped
}

// marshal is json.Marshal that reports a panicking MarshalJSON as an error.
func marshal(v any) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("panic while encoding: %v", r)
		}
	}()
	return json.Marshal(v)
}

// encodable returns v, or a copy of it without the parts JSON cannot encode,
// and whether anything of v is left. Maps and slices of the shapes data
// usually has are cleaned member by member; any other value is kept or
// dropped whole. onPath holds the maps and slices being walked, so that a
// cycle is cut where it closes.
func encodable(v any, path string, dropped *[]string, onPath map[uintptr]bool) (any, bool) {
	_, err := marshal(v)
	if err == nil {
		return v, true
	}
	switch t := v.(type) {
	case map[string]any:
		p := reflect.ValueOf(t).Pointer()
		if onPath[p] {
			*dropped = append(*dropped, path+": a cycle")
			return nil, false
		}
		onPath[p] = true
		defer delete(onPath, p)
		out := make(map[string]any, len(t))
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if x, ok := encodable(t[k], path+"."+k, dropped, onPath); ok {
				out[k] = x
			}
		}
		return out, true
	case []any:
		if len(t) == 0 {
			break
		}
		p := reflect.ValueOf(t).Pointer()
		if onPath[p] {
			*dropped = append(*dropped, path+": a cycle")
			return nil, false
		}
		onPath[p] = true
		defer delete(onPath, p)
		out := make([]any, len(t))
		for i, x := range t {
			// A dropped element becomes null, so that indices still
			// point at the same elements.
			out[i], _ = encodable(x, fmt.Sprintf("%s[%d]", path, i), dropped, onPath)
		}
		return out, true
	}
	*dropped = append(*dropped, path+": "+err.Error())
	return nil, false
}

// taskOutcome is how a task ends, from what its call ended with: res, or
// the failure f that end rendered. A failure MCP defines as a JSON-RPC
// error (see protocolError) and the framework's own ends of a task (its
// TTL, a shutdown past its grace) end it failed, with the JSON-RPC error
// object the request would have been answered with. Anything else, a
// declared failure, a classified service error and a panic included,
// ends it completed, with the very result the request would have been
// answered with: an error result, isError true.
func taskOutcome(res *mcp.CallToolResult, f *wireError) fleet.TaskChange {
	if f != nil && (protocolError(f.err) || f.err.Cause() == errFrameworkEnd) {
		msg := f.message
		return fleet.TaskChange{Status: fleet.TaskFailed, Outcome: f.object, Message: &msg}
	}
	if f != nil {
		res = f.toolResult()
	}
	b, err := json.Marshal(res)
	if err != nil {
		// Unreachable: a result the SDK could send encodes.
		g, _ := newWireError(mcperr.InternalError("The result of the task could not be encoded."))
		b, _ = json.Marshal(g.toolResult())
	}
	return fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: b}
}

// protocolError reports whether a call's failure is one MCP defines as a
// JSON-RPC error even for a tool: a missing client capability, or a
// requestState that fails verification. (It looks at the cause itself, not
// along the chain: a handler's error may have methods that panic.)
func protocolError(e *mcperr.Error) bool {
	return e.Code() == mcperr.CodeMissingClientCapability || e.Cause() == errBadState
}
