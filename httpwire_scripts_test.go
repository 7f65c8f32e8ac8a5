package mcpcore_test

// The scripts of TestHTTPWireGolden, one per golden file: what a client
// sends, in order (an exchange may use a session an earlier one opened).

import (
	"strings"

	"github.com/seed417024ea/mcpcore"
)

// statefulWire is the default server: sessions, every legacy version, and
// every refusal of its endpoint.
func statefulWire(srv wireServer) []exchange {
	s := func(version string) []string { return onSession("s1125", version) }
	cur := s("2025-11-25")
	return []exchange{
		// Sessions of each legacy version.
		{name: "initialize 2025-03-26", body: initialize(1, "2025-03-26"), save: "s0326"},
		{name: "notifications/initialized 2025-03-26", header: onSession("s0326", "2025-03-26"), body: notify("notifications/initialized", "")},
		{name: "batch of two calls 2025-03-26", header: onSession("s0326", "2025-03-26"), sortEvents: true,
			body: "[" + call(2, "ping", "") + "," + call(3, "prompts/list", "") + "]", note: "events sorted: the SDK answers a batch's calls as they finish"},
		{name: "batch of a call and a notification 2025-03-26", header: onSession("s0326", "2025-03-26"),
			body: "[" + call(4, "ping", "") + "," + notify("notifications/cancelled", `{"requestId":999}`) + "]"},
		{name: "batch of notifications 2025-03-26", header: onSession("s0326", "2025-03-26"),
			body: "[" + notify("notifications/cancelled", `{"requestId":998}`) + "," + notify("notifications/cancelled", `{"requestId":999}`) + "]"},
		{name: "initialize 2025-06-18", body: initialize(1, "2025-06-18"), save: "s0618"},
		{name: "notifications/initialized 2025-06-18", header: onSession("s0618", "2025-06-18"), body: notify("notifications/initialized", "")},
		{name: "batch 2025-06-18", header: onSession("s0618", "2025-06-18"), body: "[" + call(2, "ping", "") + "," + call(3, "ping", "") + "]"},
		{name: "initialize 2025-11-25", body: initialize(1, "2025-11-25"), save: "s1125"},
		{name: "notifications/initialized 2025-11-25", header: cur, body: notify("notifications/initialized", "")},
		{name: "batch 2025-11-25", header: cur, body: "[" + call(2, "ping", "") + "]"},

		// Every kind of method, on the session of 2025-11-25.
		{name: "tools/list", header: cur, body: call(2, "tools/list", "")},
		{name: "tools/call success", header: cur, body: call(3, "tools/call", echoArgs)},
		{name: "tools/call declared failure", header: cur, body: call("c-4", "tools/call", lookupArgs)},
		{name: "tools/call unknown tool", header: cur, body: call(5, "tools/call", `{"name":"nope","arguments":{}}`)},
		{name: "tools/call invalid arguments", header: cur, body: call(6, "tools/call", `{"name":"echo","arguments":{"text":5}}`)},
		{name: "resources/templates/list", header: cur, body: call(7, "resources/templates/list", "")},
		{name: "resources/read", header: cur, body: call(8, "resources/read", docArgs)},
		{name: "prompts/list", header: cur, body: call(9, "prompts/list", "")},
		{name: "prompts/get", header: cur, body: call(10, "prompts/get", promptArgs)},
		{name: "ping", header: cur, body: call(11, "ping", "")},
		{name: "ping without params nor version header", header: []string{"Mcp-Session-Id: {s1125}"}, body: call(12, "ping", "")},
		{name: "a notification", header: cur, body: notify("notifications/cancelled", `{"requestId":999}`)},
		{name: "a response the server never asked for", header: cur, body: `{"jsonrpc":"2.0","id":77,"result":{}}`},
		{name: "unknown method", header: cur, body: call(13, "foo/bar", "")},
		{name: "a notification sent with an id", header: cur, body: call(14, "notifications/initialized", "")},
		{name: "tools/call without params", header: cur, body: call(15, "tools/call", "")},
		{name: "tasks/get under 2025-11-25", header: cur, body: call(16, "tasks/get", `{"taskId":"abc"}`)},
		{name: "a call held in its handler", async: "held", header: cur, body: call(17, "tools/call", `{"name":"wait","arguments":{"text":"held"}}`)},
		{name: "a call with the id of a call in flight", before: srv.gate.started1, header: cur, body: call(17, "ping", "")},
		{name: "the held call, once released", before: srv.gate.open, await: "held"},

		// Without a session.
		{name: "a call without session", body: call(1, "tools/list", "")},
		{name: "ping without session", body: call(2, "ping", "")},
		{name: "a notification without session", body: notify("notifications/initialized", "")},
		{name: "unknown session", header: onSession("nope", "2025-11-25"), body: call(3, "tools/list", "")},
		{name: "unknown session and no Accept", header: with(onSession("nope", "2025-11-25"), "Accept:"), body: call(4, "tools/list", "")},
		{name: "initialize in a batch", body: "[" + initialize(1, "2025-03-26") + "]"},

		// The form of a request.
		{name: "no Accept", header: with(cur, "Accept:"), body: call(20, "ping", "")},
		{name: "Accept without text/event-stream", header: with(cur, "Accept: application/json"), body: call(21, "ping", "")},
		{name: "Accept without application/json", header: with(cur, "Accept: text/event-stream"), body: call(22, "ping", "")},
		{name: "Accept */*", header: with(cur, "Accept: */*"), body: call(23, "ping", "")},
		{name: "Content-Type text/plain", header: with(cur, "Content-Type: text/plain"), body: call(24, "ping", "")},
		{name: "no Content-Type", header: with(cur, "Content-Type:"), body: call(25, "ping", "")},
		{name: "Content-Type with charset", header: with(cur, "Content-Type: application/json; charset=utf-8"), body: call(26, "ping", "")},
		{name: "malformed Mcp-Protocol-Version", header: s("2025-1-1"), body: call(27, "ping", "")},
		{name: "Mcp-Protocol-Version twice", header: with(s("2025-11-25"), "Mcp-Protocol-Version: 2025-11-25, 2025-06-18"), body: call(28, "ping", "")},
		{name: "unsupported Mcp-Protocol-Version", header: s("2024-01-01"), body: call(29, "ping", "")},
		{name: "malformed Mcp-Protocol-Version without session", header: []string{"Mcp-Protocol-Version: x"}, body: call(30, "tools/list", "")},
		{name: "Last-Event-ID on a POST", header: with(cur, "Last-Event-ID: abc_1"), body: call(31, "ping", "")},
		{name: "not JSON", header: cur, body: `not json`},
		{name: "trailing garbage", header: cur, body: call(32, "ping", "") + ` x`},
		{name: "jsonrpc 1.0", header: cur, body: `{"jsonrpc":"1.0","id":33,"method":"ping"}`},
		{name: "fractional id", header: cur, body: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`},
		{name: "empty batch", header: cur, body: `[]`},
		{name: "batch with an invalid element", header: onSession("s0326", "2025-03-26"), body: "[" + call(34, "ping", "") + `,{"jsonrpc":"2.0","id":true,"method":"ping"}]`},
		{name: "empty body", header: cur, body: ""},

		// Protocol 2026-07-28 on a stateful server.
		{name: "2026-07-28 call in a session", header: with(s("2026-07-28"), "Mcp-Method: tools/list"), body: call2026(40, "tools/list", "")},
		{name: "2026-07-28 call without session", header: std2026("tools/list", ""), body: call2026(41, "tools/list", "")},
		{name: "2026-07-28 server/discover without session", header: std2026("server/discover", ""), body: call2026(42, "server/discover", "")},
		{name: "version header 2099-01-01 in a session", header: s("2099-01-01"), body: call(43, "ping", "")},
		{name: "version header 2099-01-01 on initialize", header: []string{"Mcp-Protocol-Version: 2099-01-01"}, body: initialize(44, "2025-11-25")},

		// GET and DELETE.
		{name: "GET stream", method: "GET", header: cur, open: "stream"},
		{name: "a second GET stream", method: "GET", header: cur},
		{name: "GET stream closed", shut: "stream"},
		{name: "GET without session", method: "GET", header: []string{"Mcp-Protocol-Version: 2025-11-25"}},
		{name: "GET unknown session", method: "GET", header: onSession("nope", "2025-11-25")},
		{name: "GET without Accept", method: "GET", header: with(cur, "Accept:")},
		{name: "GET with malformed Last-Event-ID", method: "GET", header: with(cur, "Last-Event-ID: abc")},
		{name: "GET with Last-Event-ID", method: "GET", header: with(cur, "Last-Event-ID: abc_1")},
		{name: "GET with a body", method: "GET", header: cur, body: call(1, "ping", "")},
		{name: "PUT", method: "PUT", header: cur},
		{name: "DELETE without session", method: "DELETE"},
		{name: "DELETE unknown session", method: "DELETE", header: onSession("nope", "2025-11-25")},
		{name: "DELETE", method: "DELETE", header: onSession("s0326", "2025-03-26")},
		{name: "a call in the deleted session", header: onSession("s0326", "2025-03-26"), body: call(5, "ping", "")},

		// Browsers and DNS rebinding.
		{name: "foreign Origin", header: with(cur, "Origin: http://evil.example"), body: call(50, "ping", "")},
		{name: "cross-site Sec-Fetch-Site", header: with(cur, "Sec-Fetch-Site: cross-site"), body: call(51, "ping", "")},
		{name: "foreign Host", header: with(cur, "Host: evil.example"), body: call(52, "ping", "")},
		{name: "the probes' path", method: "GET", path: mcpcore.ReadinessPath},
	}
}

// statelessWire is a stateless server: every era, the 2026-07-28 rules and
// their headers.
func statelessWire(wireServer) []exchange {
	legacy := []string{"Mcp-Protocol-Version: 2025-11-25"}
	return []exchange{
		// Legacy requests.
		{name: "initialize", body: initialize(1, "2025-11-25")},
		{name: "notifications/initialized", header: legacy, body: notify("notifications/initialized", "")},
		{name: "tools/list without version header", body: call(2, "tools/list", "")},
		{name: "tools/call success", header: legacy, body: call(3, "tools/call", echoArgs)},
		{name: "tools/call declared failure", header: legacy, body: call(4, "tools/call", lookupArgs)},
		{name: "resources/read", header: legacy, body: call(5, "resources/read", docArgs)},
		{name: "prompts/get", header: legacy, body: call(6, "prompts/get", promptArgs)},
		{name: "ping", header: legacy, body: call(7, "ping", "")},
		{name: "unknown method", header: legacy, body: call(8, "foo/bar", "")},
		{name: "Mcp-Session-Id is ignored", header: with(legacy, "Mcp-Session-Id: whatever"), body: call(9, "ping", "")},
		{name: "batch without version header", sortEvents: true, body: "[" + call(10, "ping", "") + "," + call(11, "prompts/list", "") + "]",
			note: "events sorted: the SDK answers a batch's calls as they finish"},
		{name: "batch 2025-11-25", header: legacy, body: "[" + call(12, "ping", "") + "]"},
		{name: "initialize in a batch", body: "[" + initialize(1, "2025-03-26") + "]"},
		{name: "no Accept", header: with(legacy, "Accept:"), body: call(13, "ping", "")},
		{name: "Content-Type text/plain", header: with(legacy, "Content-Type: text/plain"), body: call(14, "ping", "")},
		{name: "malformed Mcp-Protocol-Version", header: []string{"Mcp-Protocol-Version: latest"}, body: call(15, "ping", "")},
		{name: "unsupported Mcp-Protocol-Version", header: []string{"Mcp-Protocol-Version: 2024-01-01"}, body: call(16, "ping", "")},
		{name: "version header 2099-01-01", header: []string{"Mcp-Protocol-Version: 2099-01-01"}, body: call(17, "ping", "")},
		{name: "not JSON", body: `{`},
		{name: "GET", method: "GET", header: legacy},
		{name: "DELETE", method: "DELETE", header: with(legacy, "Mcp-Session-Id: whatever")},
		{name: "PUT", method: "PUT"},
		{name: "foreign Origin", header: with(legacy, "Origin: http://evil.example"), body: call(17, "ping", "")},
		{name: "foreign Host", header: with(legacy, "Host: evil.example"), body: call(18, "ping", "")},

		// Protocol 2026-07-28.
		{name: "2026 server/discover", header: std2026("server/discover", ""), body: call2026(20, "server/discover", "")},
		{name: "2026 tools/list", header: std2026("tools/list", ""), body: call2026(21, "tools/list", "")},
		{name: "2026 tools/call success", header: std2026("tools/call", "echo"), body: call2026(22, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)},
		{name: "2026 tools/call declared failure", header: std2026("tools/call", "lookup"), body: call2026(23, "tools/call", `"name":"lookup","arguments":{"id":"7"}`)},
		{name: "2026 resources/read", header: std2026("resources/read", "wire://docs/a"), body: call2026(24, "resources/read", `"uri":"wire://docs/a"`)},
		{name: "2026 prompts/get", header: std2026("prompts/get", "outline"), body: call2026(25, "prompts/get", `"name":"outline","arguments":{"text":"tides"}`)},
		{name: "2026 ping", header: std2026("ping", ""), body: call2026(26, "ping", "")},
		{name: "2026 notification", header: std2026("notifications/cancelled", ""), body: notify("notifications/cancelled", `{"requestId":999}`)},
		{name: "2026 unknown method", header: std2026("foo/bar", ""), body: call2026(27, "foo/bar", "")},
		{name: "2026 unknown tool", header: std2026("tools/call", "nope"), body: call2026(28, "tools/call", `"name":"nope","arguments":{}`)},
		{name: "2026 invalid arguments", header: std2026("tools/call", "echo"), body: call2026(29, "tools/call", `"name":"echo","arguments":{"text":5}`)},
		{name: "2026 without clientCapabilities", header: std2026("ping", ""),
			body: call(30, "ping", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`)},
		{name: "2026 _meta without version header", header: []string{"Mcp-Method: ping"}, body: call2026(31, "ping", "")},
		{name: "2026 _meta with another version header", header: []string{"Mcp-Protocol-Version: 2025-11-25", "Mcp-Method: ping"}, body: call2026(32, "ping", "")},
		{name: "2026 version header without _meta", header: std2026("ping", ""), body: call(33, "ping", "")},
		{name: "2026 without Mcp-Method", header: []string{"Mcp-Protocol-Version: 2026-07-28"}, body: call2026(34, "ping", "")},
		{name: "2026 Mcp-Method mismatch", header: std2026("tools/list", ""), body: call2026(35, "ping", "")},
		{name: "2026 tools/call without Mcp-Name", header: std2026("tools/call", ""), body: call2026(36, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)},
		{name: "2026 tools/call Mcp-Name mismatch", header: std2026("tools/call", "lookup"), body: call2026(37, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)},
		{name: "2026 tools/call name not a string", header: std2026("tools/call", "echo"), body: call2026(38, "tools/call", `"name":5`)},
		{name: "2026 tools/call requestState not a string", header: std2026("tools/call", "echo"),
			body: call2026(38, "tools/call", `"name":"echo","arguments":{"text":"hi"},"requestState":5`)},
		{name: "2026 resources/read Mcp-Name mismatch", header: std2026("resources/read", "wire://docs/b"), body: call2026(39, "resources/read", `"uri":"wire://docs/a"`)},
		{name: "2026 prompts/get Mcp-Name mismatch", header: std2026("prompts/get", "other"), body: call2026(40, "prompts/get", `"name":"outline","arguments":{"text":"tides"}`)},
		{name: "2026 tasks/get without Mcp-Name", header: std2026("tasks/get", ""), body: call2026(41, "tasks/get", `"taskId":"abc"`)},
		{name: "2026 tasks/get Mcp-Name mismatch", header: std2026("tasks/get", "xyz"), body: call2026(42, "tasks/get", `"taskId":"abc"`)},
		{name: "2026 tasks/get taskId not a string", header: std2026("tasks/get", "abc"), body: call2026(43, "tasks/get", `"taskId":5`)},
		{name: "2026 tasks/cancel Mcp-Name mismatch", header: std2026("tasks/cancel", "xyz"), body: call2026(44, "tasks/cancel", `"taskId":"abc"`)},
		{name: "2026 tasks/get without the tasks capability", header: std2026("tasks/get", "abc"), body: call2026(45, "tasks/get", `"taskId":"abc"`)},
		{name: "2026 tasks/get of an unknown task", header: std2026("tasks/get", "abc"),
			body: call(45, "tasks/get", `{"taskId":"abc","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}`)},
		{name: "2026 Mcp-Param-Region matches", header: std2026("tools/call", "locate", "Mcp-Param-Region: eu"),
			body: call2026(46, "tools/call", `"name":"locate","arguments":{"region":"eu"}`)},
		{name: "2026 Mcp-Param-Region mismatch", header: std2026("tools/call", "locate", "Mcp-Param-Region: us"),
			body: call2026(47, "tools/call", `"name":"locate","arguments":{"region":"eu"}`)},
		{name: "2026 Mcp-Param-Region missing", header: std2026("tools/call", "locate"),
			body: call2026(48, "tools/call", `"name":"locate","arguments":{"region":"eu"}`)},
		{name: "2026 batch", header: std2026("ping", ""), body: "[" + call2026(49, "ping", "") + "]"},
		{name: "2026 initialize", header: std2026("initialize", ""), body: initialize(50, "2026-07-28")},
	}
}

// authWire is a stateful server with bearer tokens (MCP_AUTH_MODE=jwt,
// MCP_AUTH_REQUIRED_SCOPES=mcp:use) and a share of one session per
// subject.
func authWire(wireServer) []exchange {
	alice, bob := "Authorization: Bearer {alice}", "Authorization: Bearer {bob}"
	return []exchange{
		{name: "no token", body: initialize(1, "2025-11-25")},
		{name: "not a bearer token", header: []string{"Authorization: Basic YTpi"}, body: initialize(1, "2025-11-25")},
		{name: "expired token", header: []string{"Authorization: Bearer {expired}"}, body: initialize(1, "2025-11-25")},
		{name: "forged token", header: []string{"Authorization: Bearer {forged}"}, body: initialize(1, "2025-11-25")},
		{name: "token without exp", header: []string{"Authorization: Bearer {noexp}"}, body: initialize(1, "2025-11-25")},
		{name: "token for another audience", header: []string{"Authorization: Bearer {otheraud}"}, body: initialize(1, "2025-11-25")},
		{name: "token without the required scope", header: []string{"Authorization: Bearer {noscope}"}, body: initialize(1, "2025-11-25")},
		{name: "initialize", header: []string{alice}, body: initialize(1, "2025-11-25"), save: "alice1"},
		{name: "notifications/initialized", header: with(onSession("alice1", "2025-11-25"), alice), body: notify("notifications/initialized", "")},
		{name: "tools/call", header: with(onSession("alice1", "2025-11-25"), alice), body: call(2, "tools/call", echoArgs)},
		{name: "a second session of the subject", header: []string{alice}, body: initialize(3, "2025-11-25")},
		{name: "initialize of another subject", header: []string{bob}, body: initialize(4, "2025-11-25"), save: "bob1"},
		{name: "a call in another subject's session", header: with(onSession("alice1", "2025-11-25"), bob), body: call(5, "tools/list", "")},
		{name: "GET of another subject's session", method: "GET", header: with(onSession("alice1", "2025-11-25"), bob)},
		{name: "DELETE of another subject's session", method: "DELETE", header: with(onSession("alice1", "2025-11-25"), bob)},
		{name: "a call in a session without token", header: onSession("alice1", "2025-11-25"), body: call(6, "tools/list", "")},
		{name: "DELETE", method: "DELETE", header: with(onSession("alice1", "2025-11-25"), alice)},
		{name: "initialize after DELETE", header: []string{alice}, body: initialize(7, "2025-11-25"), save: "alice2"},
		{name: "a malformed body without token", body: `{`},
		{name: "protected-resource metadata", method: "GET", path: "/.well-known/oauth-protected-resource"},
	}
}

// authStatelessWire is a stateless server with bearer tokens.
func authStatelessWire(wireServer) []exchange {
	alice := "Authorization: Bearer {alice}"
	return []exchange{
		{name: "no token", header: []string{"Mcp-Protocol-Version: 2025-11-25"}, body: call(1, "tools/call", echoArgs)},
		{name: "token without the required scope", header: []string{"Mcp-Protocol-Version: 2025-11-25", "Authorization: Bearer {noscope}"}, body: call(2, "tools/call", echoArgs)},
		{name: "tools/call", header: []string{"Mcp-Protocol-Version: 2025-11-25", alice}, body: call(3, "tools/call", echoArgs)},
		{name: "2026 tools/call", header: std2026("tools/call", "echo", alice), body: call2026(4, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)},
		{name: "2026 no token", header: std2026("tools/call", "echo"), body: call2026(5, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)},
	}
}

// limitsWire is a stateful server with a cap of one session and bodies of
// at most 1024 bytes, read within 300 ms.
func limitsWire(wireServer) []exchange {
	padded := call(1, "ping", `{"pad":"`+strings.Repeat("a", 2048)+`"}`)
	return []exchange{
		{name: "a body declared too large", raw: true, header: []string{"Content-Length: 100000000"}},
		{name: "a body too large", header: []string{"Transfer-Encoding: chunked"}, body: padded},
		{name: "a body that never comes", raw: true, header: []string{"Content-Length: 100"}, note: "answered when the body's 300 ms are over"},
		{name: "initialize", body: initialize(1, "2025-11-25"), save: "s"},
		{name: "notifications/initialized", header: onSession("s", "2025-11-25"), body: notify("notifications/initialized", "")},
		{name: "initialize over the cap", body: initialize(2, "2025-11-25")},
		{name: "a call of the session", header: onSession("s", "2025-11-25"), body: call(3, "ping", "")},
	}
}

// drainingWire is a server that drains, as shutdown begins, in either
// mode.
func drainingWire(stateless bool) func(wireServer) []exchange {
	return func(srv wireServer) []exchange {
		session := onSession("s", "2025-11-25")
		if stateless {
			session = []string{"Mcp-Protocol-Version: 2025-11-25"}
		}
		drain := func() error { mcpcore.Drain(srv.Server); return nil }
		return []exchange{
			{name: "initialize", body: initialize(1, "2025-11-25"), save: "s"},
			{name: "notifications/initialized", header: session, body: notify("notifications/initialized", "")},
			{name: "tools/call while draining", before: drain, header: session, body: call(2, "tools/call", echoArgs)},
			{name: "initialize while draining", body: initialize(3, "2025-11-25")},
			{name: "ping while draining", header: session, body: call(4, "ping", "")},
			{name: "a notification while draining", header: session, body: notify("notifications/cancelled", `{"requestId":999}`)},
			{name: "2026 tools/call while draining", header: std2026("tools/call", "echo"), body: call2026(5, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)},
		}
	}
}
