package rpcguard

import (
	"bytes"
	"encoding/json"
	"slices"
)

// notInitialized is the fault of a call that needs an initialized session
// and comes before initialize. The SDK answers it with code 0, which is no
// JSON-RPC code.
var notInitialized = invalidRequest("the session is not initialized: send initialize first " +
	"(over HTTP, then send this request with the Mcp-Session-Id header its answer returned)")

// needsSession reports whether the call m can only be served in a session
// that initialize opened: every method but initialize, ping and
// server/discover, unless the request carries its protocol version in
// params._meta, as 2026-07-28 requests do to stand on their own.
func needsSession(m *message) bool {
	switch m.method {
	case "initialize", "ping", "server/discover":
		return false
	}
	if !bytes.Contains(m.raw, newProtocolKey) {
		return true // decoding the whole request would say no more
	}
	var p struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(m.raw, &p) == nil {
		if _, ok := p.Params.Meta["io.modelcontextprotocol/protocolVersion"]; ok {
			return false
		}
	}
	return true
}

// inBatch is the fault of an initialize inside a batch: the specification
// forbids it (2025-03-26), and over HTTP a batch would open sessions that
// the session cap never saw.
var inBatch = invalidRequest("initialize must be sent alone, not in a batch")

// markBatchRules marks the requests of a batch that may not be in one:
// initialize, and, before any initialize (initialized false), a call that
// needs a session.
func markBatchRules(msgs []*message, initialized bool) {
	for _, m := range msgs {
		switch {
		case m.fault != nil || !m.request:
		case m.method == "initialize":
			m.fault = inBatch
		case !initialized && m.isCall() && needsSession(m):
			m.fault = notInitialized
		}
	}
}

// newProtocolKey is the _meta key by which a request stands on its own.
var newProtocolKey = []byte(`"io.modelcontextprotocol/protocolVersion"`)

// BeforeInitialize returns the JSON-RPC error answer to body, a request or
// a batch sent to a stateful HTTP endpoint without a session, when it needs
// one (see needsSession); nil otherwise. A batch with such a call is
// refused whole, as Check refuses one with an invalid element. body has
// passed Check.
func BeforeInitialize(body []byte) []byte {
	body = bytes.Trim(body, " \t\r\n")
	if first(body) != '[' {
		m := parseMessage(body)
		if !m.isCall() || !needsSession(m) {
			return nil
		}
		return answer(notInitialized, &m.id)
	}
	var msgs []*message
	for _, e := range elements(body) {
		msgs = append(msgs, parseMessage(e))
	}
	if !slices.ContainsFunc(msgs, func(m *message) bool { return m.isCall() && needsSession(m) }) {
		return nil
	}
	var answers [][]byte
	for _, m := range msgs {
		if m.isCall() {
			answers = append(answers, answer(notInitialized, &m.id))
		}
	}
	return array(answers)
}
