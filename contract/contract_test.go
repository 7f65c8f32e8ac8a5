package contract_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/mcperr"
)

func TestTextRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ message, hint, text string }{
		{"Not found", "", "Error: Not found"},
		{"Not found", "Search first.", "Error: Not found\n\nRecovery: Search first."},
		{"", "", "Error: "},
		{"two\nlines", "a hint\nover two", "Error: two\nlines\n\nRecovery: a hint\nover two"},
	} {
		if got := contract.Text(tc.message, tc.hint); got != tc.text {
			t.Errorf("Text(%q, %q) = %q, want %q", tc.message, tc.hint, got, tc.text)
		}
		if m, h := contract.ParseText(tc.text); m != tc.message || h != tc.hint {
			t.Errorf("ParseText(%q) = %q, %q; want %q, %q", tc.text, m, h, tc.message, tc.hint)
		}
	}
	// A text another server wrote, without the prefix, is all message.
	if m, h := contract.ParseText("it broke"); m != "it broke" || h != "" {
		t.Errorf("ParseText without prefix = %q, %q", m, h)
	}
}

// Every Retryability survives publishing and reading back, and so does
// each field that is published.
func TestPublishParseMetaRoundTrip(t *testing.T) {
	t.Parallel()
	declared := []contract.Failure{
		{Reason: "a", Code: mcperr.CodeNotFound, When: "w", Recovery: "r"},
		{Reason: "b", Code: mcperr.CodeRateLimited, When: "w", Recovery: "r", Retryable: contract.Retryable},
		{Reason: "c", Code: -31999, When: "w", Recovery: "r", Retryable: contract.NotRetryable,
			Severity: contract.SeverityInfo, ThrownBy: contract.ThrownByService},
	}
	for name, v := range map[string]any{
		"as the server holds it": contract.Publish(declared),
		"as a client decodes it": jsonValue(t, contract.Publish(declared)),
		"as raw JSON":            json.RawMessage(mustJSON(t, contract.Publish(declared))),
	} {
		got, err := contract.ParseMeta(map[string]any{contract.MetaKey: v})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := append([]contract.Failure(nil), declared...)
		want[2].Severity, want[2].ThrownBy = "", "" // not published
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
	}
	for _, meta := range []map[string]any{nil, {}, {contract.MetaKey: nil}, {contract.MetaKey: []any{}}} {
		if got, err := contract.ParseMeta(meta); got != nil || err != nil {
			t.Errorf("ParseMeta(%v) = %v, %v; want nil, nil", meta, got, err)
		}
	}
}

func TestRetryabilityFlag(t *testing.T) {
	t.Parallel()
	for r, want := range map[contract.Retryability][2]bool{
		contract.RetryUnspecified: {false, false},
		contract.Retryable:        {true, true},
		contract.NotRetryable:     {false, true},
		contract.Retryability(7):  {false, false},
	} {
		if v, ok := r.Flag(); v != want[0] || ok != want[1] {
			t.Errorf("%v.Flag() = %v, %v; want %v, %v", r, v, ok, want[0], want[1])
		}
	}
}

func TestParseCode(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{
		"-32001": true, "0": true, "2147483647": true,
		"": false, `"-32001"`: false, "-32001.5": false, "2147483648": false, "null": false,
	} {
		if _, ok := contract.ParseCode(json.RawMessage(raw)); ok != want {
			t.Errorf("ParseCode(%s) ok = %v, want %v", raw, ok, want)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonValue(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(mustJSON(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
