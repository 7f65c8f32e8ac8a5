package rpcguard_test

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"
)

// probe is the request sent after every fuzz input: its answer shows that
// the connection still serves.
const probe = `{"jsonrpc":"2.0","id":"rpcguard-probe","method":"ping"}`

var fuzzSeeds = []string{
	initialize("2025-06-18") + initialized + `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	initialize("2025-03-26") + initialized + `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`,
	initialize("2025-06-18") + `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":7,"result":{}}`,
	`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}`,
	`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
	`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"i\u0064":"x","method":"ping","method":"ping"}`,
	initialize("2025-03-26") + initialized + `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"id":1,"method":"ping"}]`,
	`{"jsonrpc":"2.0","id":1,"method":"ping"} garbage`,
	`[]`, `[1]`, `{}`, `null`, `"x"`, "\r\n\n",
	deep(1001),
}

// FuzzStdioGuard feeds raw bytes to the SDK behind the guard, then a
// probe request. The connection must answer the probe (no exit, no hang),
// every line it writes must be valid JSON-RPC 2.0, every line that is not
// JSON must get a -32700 answer and every JSON line that is no request a
// -32600 one, and no answer may carry an id the input did not send.
func FuzzStdioGuard(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	closed := make(blocker)
	close(closed)
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte("rpcguard-probe")) {
			t.Skip("the input uses the probe's id")
		}
		c := startConn(t, 0, closed, false)
		c.send(string(data) + "\n" + probe + "\n")
		var out []string
		deadline := time.After(10 * time.Second)
	read:
		for {
			select {
			case l, ok := <-c.lines:
				if !ok {
					t.Fatalf("the server closed its output after %q", out)
				}
				out = append(out, l)
				if strings.Contains(l, `"id":"rpcguard-probe"`) {
					break read
				}
			case <-c.ended:
				t.Fatalf("the connection ended after %q", out)
			case <-deadline:
				t.Fatalf("no answer to the probe within 10s; got %q", out)
			}
		}
		if got := out[len(out)-1]; got != `{"jsonrpc":"2.0","id":"rpcguard-probe","result":{}}` {
			t.Errorf("probe answered %s", got)
		}
		checkOutput(t, data, out)
	})
}

// checkOutput checks what the server wrote for input against an oracle
// independent of the guard's code.
func checkOutput(t *testing.T, input []byte, out []string) {
	t.Helper()
	codes := map[int]int{}
	ids := sentIDs(input)
	for _, l := range out {
		for _, obj := range wireObjects(t, l) {
			var r struct {
				ID    json.RawMessage
				Error *struct{ Code int }
			}
			json.Unmarshal(obj, &r)
			if r.Error != nil {
				codes[r.Error.Code]++
			}
			if len(r.ID) > 0 && string(r.ID) != "null" && !ids.has(r.ID) {
				t.Errorf("answer under an id never sent: %s", obj)
			}
		}
	}
	var notJSON, notRequest int
	for line := range bytes.Lines(input) {
		line = bytes.Trim(line, " \t\r\n")
		switch {
		case len(line) == 0:
		case !json.Valid(line) || nesting(line) > 1000:
			notJSON++
		default:
			notRequest += notRequests(line)
		}
	}
	if codes[-32700] != notJSON {
		t.Errorf("%d parse errors answered for %d lines that are not JSON", codes[-32700], notJSON)
	}
	if codes[-32600] < notRequest {
		t.Errorf("%d invalid requests answered for %d JSON values that are no request", codes[-32600], notRequest)
	}
}

// wireObjects checks that line is valid JSON-RPC 2.0 as a server may
// write it, and returns its messages.
func wireObjects(t *testing.T, line string) []json.RawMessage {
	t.Helper()
	var objs []json.RawMessage
	if strings.HasPrefix(line, "[") {
		if json.Unmarshal([]byte(line), &objs) != nil || len(objs) == 0 {
			t.Fatalf("not a JSON-RPC batch answer: %s", line)
		}
	} else {
		objs = []json.RawMessage{json.RawMessage(line)}
	}
	for _, o := range objs {
		var m map[string]json.RawMessage
		if json.Unmarshal(o, &m) != nil || string(m["jsonrpc"]) != `"2.0"` {
			t.Fatalf("not a JSON-RPC 2.0 message: %s", o)
		}
		_, method := m["method"]
		_, result := m["result"]
		e, isErr := m["error"]
		_, hasID := m["id"]
		if !method && (!hasID || result == isErr) {
			t.Fatalf("a response needs an id and one of result and error: %s", o)
		}
		var we struct {
			Code    *int64
			Message *string
		}
		if isErr && (json.Unmarshal(e, &we) != nil || we.Code == nil || we.Message == nil) {
			t.Fatalf("not a JSON-RPC error object: %s", o)
		}
		if isErr && *we.Code == 0 {
			t.Fatalf("an error without a JSON-RPC code (code 0): %s", o)
		}
	}
	return objs
}

// notRequests counts the values of one JSON line that cannot be a JSON-RPC
// message: a scalar, an empty batch, an element that is not an object, an
// object without "jsonrpc":"2.0".
func notRequests(line []byte) int {
	var v any
	json.Unmarshal(line, &v)
	switch v := v.(type) {
	case map[string]any:
		if v["jsonrpc"] != "2.0" {
			return 1
		}
		return 0
	case []any:
		if len(v) == 0 {
			return 1
		}
		n := 0
		for _, e := range v {
			if m, ok := e.(map[string]any); !ok || m["jsonrpc"] != "2.0" {
				n++
			}
		}
		return n
	}
	return 1
}

// nesting is the depth of arrays and objects in line.
func nesting(line []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, b := range line {
		switch {
		case escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case inString:
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case (b == '}' || b == ']') && d > 0:
			d--
		}
	}
	return deepest
}

// idSet holds the values that follow an "id" anywhere in an input, even
// in a line that is cut short: strings by value, numbers by exact value.
type idSet struct {
	strs map[string]bool
	nums []*big.Float
}

func sentIDs(input []byte) idSet {
	s := idSet{strs: map[string]bool{"rpcguard-probe": true}}
	for line := range bytes.Lines(input) {
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		afterID := false
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			if afterID {
				switch v := tok.(type) {
				case string:
					s.strs[v] = true
				case json.Number:
					if f, ok := new(big.Float).SetPrec(1024).SetString(string(v)); ok {
						s.nums = append(s.nums, f)
					}
				}
			}
			afterID = tok == "id"
		}
	}
	return s
}

func (s idSet) has(raw json.RawMessage) bool {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return s.strs[str]
	}
	f, ok := new(big.Float).SetPrec(1024).SetString(string(raw))
	if !ok {
		return false
	}
	for _, n := range s.nums {
		if n.Cmp(f) == 0 {
			return true
		}
	}
	return false
}
