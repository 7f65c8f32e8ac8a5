package rpcguard

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Check checks a JSON-RPC message or batch received whole, such as the body
// of an HTTP POST, by the rules the stream guard applies to a line (see the
// package doc), but without the state of a connection: ids in use and the
// negotiated version are the SDK's to judge there. It returns nil when body
// may go on to the SDK, and otherwise the JSON-RPC error answer to send
// instead.
//
// A batch with an invalid element is answered whole, and none of it is
// passed on: one HTTP request gets one answer, and the SDK's would not
// include the guard's. Each invalid element gets its own error, and each
// valid request an error saying that its batch was refused.
func Check(body []byte) []byte {
	body = bytes.Trim(body, " \t\r\n") // JSON's white space, no other
	if len(body) == 0 {
		return answer(parseError("the body is empty"), nil)
	}
	if fault, to, ok := frame(body, "body"); fault != nil {
		return answer(fault, idIf(to, ok))
	}
	if first(body) == '[' {
		return checkBatch(body)
	}
	if m := parseMessage(body); m.fault != nil {
		return answer(m.fault, idIf(m.id, m.echo))
	}
	return nil
}

// checkBatch is Check for a batch array.
func checkBatch(body []byte) []byte {
	elems := elements(body)
	if len(elems) == 0 {
		return answer(invalidRequest("an empty batch"), nil)
	}
	msgs := make([]*message, len(elems))
	for n, e := range elems {
		msgs[n] = parseMessage(e)
	}
	// Whether the session needs initializing is BeforeInitialize's to say.
	markBatchRules(msgs, true)
	faults := markCalls(msgs, func(id) bool { return false })
	if !slices.ContainsFunc(msgs, func(m *message) bool { return m.fault != nil }) {
		return nil
	}
	var answers [][]byte
	for _, m := range msgs {
		switch {
		case m.fault != nil:
			answers = append(answers, faults.answer(m))
		case m.isCall():
			answers = append(answers, answer(invalidRequest("the batch has invalid elements; none of it was processed"), &m.id))
		}
	}
	return array(answers)
}

// idIf returns &i when ok, nil otherwise.
func idIf(i id, ok bool) *id {
	if !ok {
		return nil
	}
	return &i
}

// TooLarge is the answer to a message longer than limit bytes.
func TooLarge(limit int64) []byte {
	return answer(parseError(fmt.Sprintf("the body is longer than %d bytes", limit)), nil)
}

// Request returns the id and the params, as written (params nil when
// absent), and the method of body, a single JSON-RPC request that passed
// Check, reading no more of it than its members; ok is false for a
// notification, a response or a batch.
func Request(body []byte) (id []byte, method string, params []byte, ok bool) {
	body = bytes.Trim(body, " \t\r\n")
	if first(body) != '{' {
		return nil, "", nil, false
	}
	var mem [len(envelope)][]byte
	members(body, envelope[:], mem[:])
	if mem[memID] == nil || string(mem[memID]) == "null" || mem[memMethod] == nil {
		return nil, "", nil, false
	}
	method, ok = stringValue(mem[memMethod])
	return mem[memID], method, mem[memParams], ok
}

// Member returns the value, as written, of the member name of obj, a JSON
// object within a message that passed Check; nil when obj has no such
// member or is no object. Keys are compared decoded and case-sensitively,
// and of a name given twice the last counts, as the SDK's decoder reads
// them; obj is scanned once, its values not decoded.
func Member(obj []byte, name string) []byte {
	var val [1][]byte
	members(obj, []string{name}, val[:])
	return val[0]
}

// String decodes raw, a JSON value of a message that passed Check, when
// it is a string.
func String(raw []byte) (string, bool) { return stringValue(raw) }

// ParseID returns raw, the id of a request that passed Check, as the SDK
// decodes it.
func ParseID(raw []byte) (jsonrpc.ID, bool) {
	i, null, fault := parseID(raw)
	if null || fault != "" {
		return jsonrpc.ID{}, false
	}
	return i.rpc(), true
}
