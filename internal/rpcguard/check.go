package rpcguard

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	if depth(body) > MaxDepth {
		to, ok := headID(body)
		return answer(parseError(fmt.Sprintf("the JSON is nested deeper than %d levels", MaxDepth)), idIf(to, ok))
	}
	if !json.Valid(body) {
		to, ok := headID(body)
		return answer(parseError(syntaxFault(body, "body")), idIf(to, ok))
	}
	switch first(body) {
	case '{':
		if m := parseMessage(body); m.fault != nil {
			return answer(m.fault, idIf(m.id, m.echo))
		}
		return nil
	case '[':
		return checkBatch(body)
	}
	return answer(invalidRequest("a message must be a JSON object, or a batch array of them"), nil)
}

// checkBatch is Check for a batch array.
func checkBatch(body []byte) []byte {
	elems := elements(body)
	if len(elems) == 0 {
		return answer(invalidRequest("an empty batch"), nil)
	}
	msgs := make([]*message, len(elems))
	invalid := false
	seen := make(map[id]bool)
	for n, e := range elems {
		m := parseMessage(e)
		if m.isCall() {
			// The SDK ends the session on an id given twice in a batch.
			if seen[m.id] {
				m.fault, m.echo = invalidRequest(`the "id" is given twice in the batch`), false
			}
			seen[m.id] = true
		}
		msgs[n] = m
		invalid = invalid || m.fault != nil
	}
	if !invalid {
		return nil
	}
	var answers [][]byte
	for _, m := range msgs {
		switch {
		case m.fault != nil:
			answers = append(answers, answer(m.fault, idIf(m.id, m.echo)))
		case m.isCall():
			answers = append(answers, answer(invalidRequest("the batch has invalid elements; none of it was processed"), &m.id))
		}
	}
	return append(append([]byte{'['}, bytes.Join(answers, []byte{','})...), ']')
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
