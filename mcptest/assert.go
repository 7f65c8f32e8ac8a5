package mcptest

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/contract"
)

// A FailureOption adds to what [AssertFailure] expects.
type FailureOption func(*expectation)

type expectation struct {
	message    *string
	recovery   *string
	noRecovery bool
	data       map[string]any
	noData     []string
}

// Message expects the failure's message to be msg.
func Message(msg string) FailureOption { return func(e *expectation) { e.message = &msg } }

// Recovery expects data.recovery.hint to be hint, and the text to end with
// its Recovery line.
func Recovery(hint string) FailureOption { return func(e *expectation) { e.recovery = &hint } }

// DeclaredRecovery expects the declared Recovery of the failure as the hint
// (what ctx.RecoveryFor sends).
func DeclaredRecovery() FailureOption { return func(e *expectation) { e.recovery = new(string) } }

// NoRecovery expects no recovery hint: no data.recovery, and no Recovery
// line in the text.
func NoRecovery() FailureOption { return func(e *expectation) { e.noRecovery = true } }

// NoData expects data to hold none of keys.
func NoData(keys ...string) FailureOption {
	return func(e *expectation) { e.noData = append(e.noData, keys...) }
}

// Data expects data[key] to be value, compared as JSON (numbers decode as
// float64).
func Data(key string, value any) FailureOption {
	return func(e *expectation) {
		if e.data == nil {
			e.data = map[string]any{}
		}
		e.data[key] = value
	}
}

// AssertFailure checks that res is the error result of the declared
// failure f:
//   - isError is true;
//   - structuredContent.error has f's code and data.reason f.Reason, and
//     data.retryable as f declares it (when it declares it);
//   - content[0].text says the same as structuredContent.error:
//     "Error: <message>", and "\n\nRecovery: <hint>" when there is a hint;
//   - what the options add: the message, the recovery hint, data keys.
//
// When a check fails, it reports the whole result as JSON, and the diff
// against what was expected (- expected, + actual).
func AssertFailure(t testing.TB, res *mcp.CallToolResult, f mcpcore.Failure, opts ...FailureOption) {
	t.Helper()
	var exp expectation
	for _, o := range opts {
		o(&exp)
	}
	if exp.recovery != nil && *exp.recovery == "" {
		exp.recovery = &f.Recovery
	}
	if res == nil {
		t.Errorf("mcptest: failure %q: the result is nil", f.Reason)
		return
	}
	actual := asJSON(res)
	want := asJSON(res) // the result as it should be: the actual one, corrected
	set(want, true, "isError")
	set(want, float64(f.Code), "structuredContent", "error", "code")
	set(want, f.Reason, "structuredContent", "error", "data", "reason")
	if retryable, declared := f.Retryable.Flag(); declared {
		set(want, retryable, "structuredContent", "error", "data", "retryable")
	}
	if exp.message != nil {
		set(want, *exp.message, "structuredContent", "error", "message")
	}
	if exp.recovery != nil {
		set(want, *exp.recovery, "structuredContent", "error", "data", "recovery", "hint")
	}
	for k, v := range exp.data {
		set(want, jsonValue(v), "structuredContent", "error", "data", k)
	}
	if data, ok := get(want, "structuredContent", "error", "data").(map[string]any); ok {
		for _, k := range exp.noData {
			delete(data, k)
		}
		if exp.noRecovery {
			delete(data, "recovery")
		}
	}
	// The text renders the structured error (the corrected one).
	msg, _ := get(want, "structuredContent", "error", "message").(string)
	hint, _ := get(want, "structuredContent", "error", "data", "recovery", "hint").(string)
	text := contract.Text(msg, hint)
	content, _ := want["content"].([]any)
	if len(content) == 0 {
		content = []any{map[string]any{"type": "text"}}
	}
	first, _ := content[0].(map[string]any)
	if first == nil {
		first = map[string]any{"type": "text"}
	}
	first["text"] = text
	content[0] = first
	want["content"] = content
	if diff := cmp.Diff(want, actual); diff != "" {
		whole, _ := json.MarshalIndent(actual, "", "  ")
		t.Errorf("mcptest: the result is not failure %q as declared.\nresult:\n%s\ndiff (- expected, + actual):\n%s", f.Reason, whole, diff)
	}
}

// asJSON is the JSON object of v as encoding/json decodes it: maps,
// slices, float64.
func asJSON(v any) map[string]any {
	m, _ := jsonValue(v).(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// jsonValue is v through JSON: what a client decodes of it.
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

// set sets the value at path in m, creating the objects on the way.
func set(m map[string]any, v any, path ...string) {
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

// get returns the value at path in m, or nil.
func get(m map[string]any, path ...string) any {
	var v any = m
	for _, k := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}
