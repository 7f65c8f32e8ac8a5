package rpcguard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"unicode/utf8"
)

// A message is one JSON-RPC object of a line or of a batch, checked.
type message struct {
	raw     []byte // the object as received
	params  []byte // the "params" member's value, nil when absent
	method  string
	request bool // it has a "method": a call, or a notification without id
	id      id
	hasID   bool      // id is set: present, valid and not null
	fault   *rpcError // why it is invalid; nil when valid
	echo    bool      // the answer to fault may carry id
}

// isCall reports whether the message is a valid request that expects an
// answer.
func (m *message) isCall() bool { return m.fault == nil && m.request && m.hasID }

// envelope lists the members the guard reads. Any of them given twice makes
// the message invalid: the SDK's decoder and this one could keep different
// copies, and the SDK's could be the one that ends the connection.
var envelope = [...]string{"jsonrpc", "id", "method", "params", "result", "error"}

// The positions of the envelope's members.
const (
	memJSONRPC = iota
	memID
	memMethod
	memParams
	memResult
	memError
)

// isVersion2 reports whether raw is the JSON string "2.0", however it is
// escaped.
func isVersion2(raw []byte) bool {
	return string(raw) == `"2.0"` || (bytes.IndexByte(raw, '\\') >= 0 && stringOf(raw) == "2.0")
}

// parseMessage checks one JSON object, known to be valid JSON.
func parseMessage(raw []byte) *message {
	m := &message{raw: raw}
	if first(raw) != '{' {
		m.fault = invalidRequest("a batch element must be an object")
		return m
	}
	var mem [len(envelope)][]byte
	dups := members(raw, envelope[:], mem[:])
	m.request = mem[memMethod] != nil
	m.params = mem[memParams]
	hasResult, hasError := mem[memResult] != nil, mem[memError] != nil
	idFault := m.readID(mem[memID])
	// An answer may carry the id of a request only: a response's id names
	// a request of the server, and the client would take an error under it
	// for the answer to its own request with that id. An id given twice
	// names no request: either copy could be the one its sender reads.
	m.echo = m.hasID && m.request && !hasResult && !hasError && dups&(1<<memID) == 0
	switch {
	case dups != 0:
		m.fault = invalidRequest(fmt.Sprintf("the %q member is given twice", envelope[bits.TrailingZeros32(dups)]))
	case !isVersion2(mem[memJSONRPC]):
		m.fault = invalidRequest(`"jsonrpc" must be "2.0"`)
	case idFault != "":
		m.fault = invalidRequest(idFault)
	case m.request:
		m.readMethod(mem[memMethod])
	default:
		m.fault = responseFault(m.hasID, hasResult, hasError, mem[memError])
	}
	return m
}

// readID reads the id member's value raw, when the message has one, and
// returns what is wrong with it, or "".
func (m *message) readID(raw []byte) string {
	if raw == nil {
		return ""
	}
	id, null, fault := parseID(raw)
	m.id, m.hasID = id, fault == "" && !null
	return fault
}

// readMethod reads the method member's value raw of a request.
func (m *message) readMethod(raw []byte) {
	method, ok := stringValue(raw)
	if !ok {
		m.fault = invalidRequest(`"method" must be a string`)
	}
	m.method = method
}

// responseFault returns what is wrong with a message that is not a
// request, as a response, or nil: it needs an id and exactly one of result
// and error, an error of the right shape.
func responseFault(hasID, hasResult, hasError bool, errRaw []byte) *rpcError {
	switch {
	case !hasID || hasResult == hasError:
		return invalidRequest(`a request needs a string "method"; a response needs an "id" and exactly one of "result" and "error"`)
	case hasError && !wireError(errRaw):
		return invalidRequest(`"error" must be an object with an integer "code" and a string "message"`)
	}
	return nil
}

// members sets vals[i] to the value of the member names[i] of the JSON
// object obj, known to be valid, and returns the names given twice, bit i
// for names[i] (names has at most 32). Keys are compared decoded, so that
// "i\u0064" is "id" again, as the SDK's decoder reads it. It allocates
// nothing but for an escaped key: it reads every line, in the one scan
// that finds the members.
func members(obj []byte, names []string, vals [][]byte) (dups uint32) {
	it, ok := newMembers(obj)
	if !ok {
		return 0
	}
	for {
		key, ok := it.key()
		if !ok {
			return dups
		}
		val := it.value()
		for i, n := range names {
			if string(key) != n {
				continue
			}
			if vals[i] != nil {
				dups |= 1 << i
			}
			vals[i] = val
			break
		}
	}
}

// wireError reports whether raw is an error object the SDK decodes: an
// integer "code" within int64, written without fraction or exponent, and a
// string "message". Any other "code" fails the SDK's decoder, and that ends
// the connection.
func wireError(raw []byte) bool {
	if first(raw) != '{' {
		return false
	}
	var mem [3][]byte // code, message, data
	if members(raw, []string{"code", "message", "data"}, mem[:]) != 0 {
		return false
	}
	var code int64
	if err := json.Unmarshal(mem[0], &code); err != nil || bytes.ContainsAny(mem[0], ".eE") {
		return false
	}
	_, ok := stringValue(mem[1])
	return ok
}

// stringValue decodes raw when it is a JSON string.
func stringValue(raw []byte) (string, bool) {
	if first(raw) != '"' {
		return "", false
	}
	if len(raw) >= 2 && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return interned(raw[1 : len(raw)-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// interned returns b as a string, the method names of every call without
// an allocation (read twice on each HTTP request).
func interned(b []byte) string {
	switch string(b) {
	case "tools/call":
		return "tools/call"
	case "tools/list":
		return "tools/list"
	case "resources/read":
		return "resources/read"
	case "prompts/get":
		return "prompts/get"
	case "2.0":
		return "2.0"
	}
	return string(b)
}

// stringOf decodes raw when it is a JSON string, and returns "" otherwise.
func stringOf(raw []byte) string {
	s, _ := stringValue(raw)
	return s
}

// first returns the first byte of b that is not JSON whitespace, or 0 when
// there is none.
func first(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return c
		}
	}
	return 0
}

// headID reads the id of a line that could not be parsed whole (not JSON,
// too long, too deep) from its first members, before the fault. It returns
// the id only when those members show a request: a "method" string, no
// "result" or "error", and a valid id.
func headID(line []byte) (id, bool) {
	const head = 64 << 10 // bounds the work spent on a line that is refused anyway
	if len(line) > head {
		line = line[:head]
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return id{}, false
	}
	var (
		got       id
		hasID     bool
		hasMethod bool
	)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		switch tok {
		case "id":
			if hasID {
				return id{}, false
			}
			var null bool
			var fault string
			got, null, fault = parseID(raw)
			hasID = fault == "" && !null
		case "method":
			_, hasMethod = stringValue(raw)
		case "result", "error":
			return id{}, false
		}
	}
	return got, hasID && hasMethod
}
