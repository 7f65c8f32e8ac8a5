package rpcguard_test

import (
	"encoding/json"
	"strings"
	"testing"
)

const ping = `{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n"
const pong = `{"jsonrpc":"2.0","id":"after","result":{}}`

// deep returns a request whose params nest arrays to make the whole line
// levels deep.
func deep(levels int) string {
	return `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":` +
		strings.Repeat("[", levels-2) + strings.Repeat("]", levels-2) + "}}\n"
}

func parseErr(id, msg string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32700,"message":"Parse error: ` + msg + `"}}`
}

func invalid(id, msg string) string {
	msg, _ = strings.CutPrefix(mustJSON(msg), `"`)
	msg, _ = strings.CutSuffix(msg, `"`)
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"Invalid Request: ` + msg + `"}}`
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

const (
	idType   = `"id" must be a string, a whole number or null`
	idNumber = `a numeric "id" must be a whole number within 64 bits that a float64 holds exactly`
	idString = `a string "id" must be valid UTF-8`
	version  = `"jsonrpc" must be "2.0"`
	notMsg   = `a request needs a string "method"; a response needs an "id" and exactly one of "result" and "error"`
)

// TestMalformedLines sends each malformed line, then a valid request: the
// line gets its JSON-RPC answer and the connection goes on serving.
func TestMalformedLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, line, want string }{
		{"not JSON", "hello\n", parseErr("null", "the line is not valid JSON")},
		{"cut short", `{"jsonrpc":"2.0","id":1,"method":"ping"` + "\n", parseErr("1", "the line is not valid JSON")},
		{"trailing garbage", `{"jsonrpc":"2.0","id":2,"method":"ping"} x` + "\n", parseErr("2", "the line has data after its JSON value")},
		{"two values", `{"jsonrpc":"2.0","id":2,"method":"ping"}{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\n", parseErr("2", "the line has data after its JSON value")},
		{"depth 1001", deep(1001), parseErr("3", "the JSON is nested deeper than 1000 levels")},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"ping"}` + "\n", invalid("1", version)},
		{"no version", `{"id":1,"method":"ping"}` + "\n", invalid("1", version)},
		{"version case", `{"JSONRPC":"2.0","id":1,"method":"ping"}` + "\n", invalid("1", version)},
		{"number", "5\n", invalid("null", "a message must be a JSON object, or a batch array of them")},
		{"null", "null\n", invalid("null", "a message must be a JSON object, or a batch array of them")},
		{"empty batch", "[]\n", invalid("null", "an empty batch")},
		{"id object", `{"jsonrpc":"2.0","id":{},"method":"ping"}` + "\n", invalid("null", idType)},
		{"id bool", `{"jsonrpc":"2.0","id":true,"method":"ping"}` + "\n", invalid("null", idType)},
		{"id array", `{"jsonrpc":"2.0","id":[],"method":"ping"}` + "\n", invalid("null", idType)},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n", invalid("null", idNumber)},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n", invalid("null", idNumber)},
		{"id 1e-1", `{"jsonrpc":"2.0","id":1e-1,"method":"ping"}` + "\n", invalid("null", idNumber)},
		{"id 30 digits", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}` + "\n", invalid("null", idNumber)},
		{"id 2^53+1", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}` + "\n", invalid("null", idNumber)},
		{"id 2^63", `{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}` + "\n", invalid("null", idNumber)},
		{"id lone surrogate", `{"jsonrpc":"2.0","id":"\ud800","method":"ping"}` + "\n", invalid("null", idString)},
		{"id invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"ping\"}\n", invalid("null", idString)},
		{"method number", `{"jsonrpc":"2.0","id":5,"method":7}` + "\n", invalid("5", `"method" must be a string`)},
		{"member twice", `{"jsonrpc":"2.0","id":6,"method":"ping","method":"tools/list"}` + "\n", invalid("6", `the "method" member is given twice`)},
		{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}` + "\n", invalid("null", `the "id" member is given twice`)},
		{"id twice, same value", `{"jsonrpc":"2.0","id":3,"method":"ping","id":3}` + "\n", invalid("null", `the "id" member is given twice`)},
		{"id twice, escaped", `{"jsonrpc":"2.0","id":1,"i\u0064":2,"method":"ping"}` + "\n", invalid("null", `the "id" member is given twice`)},
		{"jsonrpc twice", `{"jsonrpc":"2.0","jsonrpc":"1.0","id":8,"method":"ping"}` + "\n", invalid("8", `the "jsonrpc" member is given twice`)},
		{"params twice", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{},"params":[]}` + "\n", invalid("8", `the "params" member is given twice`)},
		{"id twice in a batch", `[{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}]` + "\n", "[" + invalid("null", `the "id" member is given twice`) + "]"},
		{"no method no id", `{"jsonrpc":"2.0"}` + "\n", invalid("null", notMsg)},
		{"response without result", `{"jsonrpc":"2.0","id":7}` + "\n", invalid("null", notMsg)},
		{"response with both", `{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"m"}}` + "\n", invalid("null", notMsg)},
		{"response bad error", `{"jsonrpc":"2.0","id":7,"error":{"code":"x","message":"m"}}` + "\n", invalid("null", `"error" must be an object with an integer "code" and a string "message"`)},
		{"response code 1e3", `{"jsonrpc":"2.0","id":7,"error":{"code":1e3,"message":"m"}}` + "\n", invalid("null", `"error" must be an object with an integer "code" and a string "message"`)},
		{"batch of scalars", "[1,2]\n", "[" + invalid("null", "a batch element must be an object") + "," + invalid("null", "a batch element must be an object") + "]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := startConn(t, 0, nil, false)
			c.send(tc.line)
			if got := c.next(t); got != tc.want {
				t.Errorf("answer\n got %s\nwant %s", got, tc.want)
			}
			c.send(ping)
			if got := c.next(t); got != pong {
				t.Errorf("after it: got %s, want %s", got, pong)
			}
		})
	}
}

// TestWholeNumberIDs checks that ids the SDK echoes exactly pass, whatever
// their spelling.
func TestWholeNumberIDs(t *testing.T) {
	t.Parallel()
	c := startConn(t, 0, nil, false)
	for _, tc := range []struct{ sent, answered string }{
		{"1e2", "100"},
		{"1.0", "1"},
		{"-0", "0"},
		{"12.5e1", "125"},
		{"9007199254740992", "9007199254740992"},
		{"1152921504606846976", "1152921504606846976"},
		{"-9223372036854775808", "-9223372036854775808"},
	} {
		c.send(`{"jsonrpc":"2.0","id":` + tc.sent + `,"method":"ping"}` + "\n")
		if got, want := c.next(t), `{"jsonrpc":"2.0","id":`+tc.answered+`,"result":{}}`; got != want {
			t.Errorf("id %s: got %s, want %s", tc.sent, got, want)
		}
	}
}

func TestBlankLinesSkipped(t *testing.T) {
	t.Parallel()
	c := startConn(t, 0, nil, false)
	c.send("\n  \r\n\t\n" + ping)
	if got := c.next(t); got != pong {
		t.Errorf("got %s", got)
	}
	c.quiet(t)
}

// TestIDInUse checks that a request taking the id of a pending one is
// refused under id null, so that neither answer is mistaken for the other.
func TestIDInUse(t *testing.T) {
	t.Parallel()
	release := make(blocker)
	c := startConn(t, 0, release, false)
	handshake(t, c, "2025-03-26")
	c.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"block","arguments":{}}}` + "\n")
	c.send(`{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\n")
	if got, want := c.next(t), invalid("null", `the "id" is in use by a pending request`); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	c.send(`{"jsonrpc":"1.0","id":9,"method":"ping"}` + "\n")
	if got, want := c.next(t), invalid("null", version); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	close(release)
	if got, want := c.next(t), `{"jsonrpc":"2.0","id":9,"result":{"content":`; !strings.HasPrefix(got, want) {
		t.Errorf("got %s, want %s…", got, want)
	}
	c.send(`{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\n")
	if got, want := c.next(t), `{"jsonrpc":"2.0","id":9,"result":{}}`; got != want {
		t.Errorf("once answered, the id is free again: got %s", got)
	}
}
