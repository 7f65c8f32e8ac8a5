package rpcguard

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// The SDK answers a few requests by itself, outside every middleware, with
// an error that has no JSON-RPC code: code 0, which no client can take for
// one. The one clients meet is a request cancelled while it waits in its
// session's queue: the SDK finds its context ended before the handler
// starts and answers {"code":0,"message":"context canceled"}. RealCode
// gives each such answer a code where the answers are written, on stdio
// (the guard's connection) and over HTTP (the endpoint's writer).

// cancelled is the message of a request cancelled by its client: that of
// one cancelled while its handler runs (the root package's failureOf).
const cancelled = "The request was cancelled."

// noAnswer is the message of any other error the SDK sent with code 0: its
// text may quote the request, so none of it is kept.
const noAnswer = "Internal error: the server could not answer this request."

var (
	// responseHead is how the SDK begins every response: its id follows.
	responseHead = []byte(`{"jsonrpc":"2.0","id":`)
	// codeZero is what follows the id of an error answer without a code:
	// the SDK writes the error right after the id, its code first.
	codeZero = []byte(`,"error":{"code":0,`)
)

// RealCode returns msg, one JSON-RPC message or a batch array of them as
// the SDK encodes them, with a code in each error answer of code 0 (and
// changed true), or msg itself when it has none: RequestCancelled
// (-32011) for a request cancelled before its handler started,
// InternalError (-32603) for any other. The answer keeps its id. A
// message is told by its head (see CodeZero), so that a result is never
// read (nor anything it holds taken for an error), and the cost of a
// message does not grow with its length.
func RealCode(msg []byte) (out []byte, changed bool) {
	body := bytes.TrimRight(msg, " \t\r\n")
	var fixed []byte
	switch first(body) {
	case '{':
		fixed = realCode(body)
	case '[':
		elems := elements(body)
		answers := make([][]byte, len(elems))
		changed := false
		for n, e := range elems {
			if answers[n] = realCode(e); answers[n] == nil {
				answers[n] = e
			} else {
				changed = true
			}
		}
		if changed {
			fixed = array(answers)
		}
	}
	if fixed == nil {
		return msg, false
	}
	return append(fixed, msg[len(body):]...), true
}

// CodeZero reports whether msg begins as the SDK's error answers of code
// 0 do: the response's head, its id, then the error with its code. It
// reads the id and no further.
func CodeZero(msg []byte) bool {
	rest, ok := bytes.CutPrefix(msg, responseHead)
	return ok && bytes.HasPrefix(rest[skipValue(rest, 0):], codeZero)
}

// realCode is the answer with a code to obj, one message, when it is an
// error answer of code 0, and nil otherwise.
func realCode(obj []byte) []byte {
	if !CodeZero(obj) {
		return nil
	}
	var mem [len(envelope)][]byte
	if members(obj, envelope[:], mem[:]) != 0 || mem[memError] == nil || mem[memID] == nil {
		return nil
	}
	var e [3][]byte // code, message, data
	members(mem[memError], []string{"code", "message", "data"}, e[:])
	if string(e[0]) != "0" {
		return nil
	}
	fault := &rpcError{Code: int(mcperr.CodeInternalError), Message: noAnswer}
	if stringOf(e[1]) == context.Canceled.Error() {
		fault = &rpcError{Code: int(mcperr.CodeRequestCancelled), Message: cancelled}
	}
	return answerRaw(fault, json.RawMessage(mem[memID]))
}
