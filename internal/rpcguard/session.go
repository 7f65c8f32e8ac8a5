package rpcguard

import "encoding/json"

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

// BeforeInitialize returns the JSON-RPC error answer to body, a single
// request sent to a stateful HTTP endpoint without a session, when it
// needs one (see needsSession); nil otherwise. body has passed Check.
func BeforeInitialize(body []byte) []byte {
	m := parseMessage(body)
	if !m.isCall() || !needsSession(m) {
		return nil
	}
	return answer(notInitialized, &m.id)
}
