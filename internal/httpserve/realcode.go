package httpserve

import (
	"bytes"

	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// dataField starts the line of an event that holds its message; dataLine
// is the same after other fields.
var dataField, dataLine = []byte("data: "), []byte("\ndata: ")

// realCodes returns b, what the SDK writes of an answer, with a JSON-RPC
// code in the error answers it sent with code 0 (see rpcguard.RealCode: a
// request cancelled while it waited in its session's queue is answered
// RequestCancelled); changed is false, and b returned, when there is
// none. b is a JSON body, or one server-sent event, which the SDK writes
// whole: its fields (event, id) and then the data line that holds the
// message. Only the head of the message is read, unless it is such an
// answer.
func realCodes(b []byte) (fixed []byte, changed bool) {
	if c := bytes.TrimLeft(b, " \t\r\n"); len(c) > 0 && (c[0] == '{' || c[0] == '[') {
		return rpcguard.RealCode(b)
	}
	at := -1
	if bytes.HasPrefix(b, dataField) {
		at = 0
	} else if i := bytes.Index(b[:min(len(b), 512)], dataLine); i >= 0 {
		at = i + 1
	}
	if at < 0 {
		return b, false
	}
	start := at + len(dataField)
	if !rpcguard.CodeZero(b[start:]) {
		return b, false
	}
	end := start + bytes.IndexByte(b[start:], '\n')
	if end < start {
		end = len(b)
	}
	msg, changed := rpcguard.RealCode(b[start:end])
	if !changed {
		return b, false
	}
	fixed = append(append(append(fixed, b[:start]...), msg...), b[end:]...)
	return fixed, true
}
