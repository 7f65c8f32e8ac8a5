package mcperr

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestSanitizeInputScalarsUnchanged(t *testing.T) {
	type myString string
	for _, v := range []any{nil, "password=hunter2", 42, int64(-7), uint8(3), 3.5, true, myString("x"), complex(1, 2)} {
		if got := sanitizeInput(v); !reflect.DeepEqual(got, v) {
			t.Errorf("sanitizeInput(%#v) = %#v, want it unchanged", v, got)
		}
	}
}

func TestSanitizeInputMapDeepCopy(t *testing.T) {
	in := map[string]any{
		"query":    "cats",
		"password": "hunter2",
		"note":     "see https://ann:pw@host/",
		"nested": map[string]any{
			"accessToken": "abc",
			"list": []any{
				map[string]any{"api_key": "k1", "id": 1},
				"plain",
				map[string]any{"credentials": map[string]any{"secret": "s"}},
			},
		},
		// A sensitive key's whole subtree goes.
		"authorization": map[string]any{"scheme": "Bearer", "value": "t"},
	}
	got := sanitizeInput(in)
	want := map[string]any{
		"query":    "cats",
		"password": "[REDACTED]",
		"note":     "see https://[REDACTED]@host/", // strings inside are scrubbed
		"nested": map[string]any{
			"accessToken": "[REDACTED]",
			"list": []any{
				map[string]any{"api_key": "[REDACTED]", "id": json.Number("1")},
				"plain",
				map[string]any{"credentials": map[string]any{"secret": "[REDACTED]"}},
			},
		},
		"authorization": "[REDACTED]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sanitizeInput = %#v\nwant %#v", got, want)
	}
	// The input itself is untouched.
	if in["password"] != "hunter2" {
		t.Errorf("input modified: password = %v", in["password"])
	}
	if in["nested"].(map[string]any)["list"].([]any)[0].(map[string]any)["api_key"] != "k1" {
		t.Error("nested input modified")
	}
}

func TestSanitizeInputStruct(t *testing.T) {
	type creds struct {
		User     string `json:"user"`
		Password string `json:"password"`
	}
	type req struct {
		Query   string            `json:"query"`
		APIKey  string            // no tag: key "APIKey"
		Hidden  string            `json:"-"`
		Creds   *creds            `json:"creds"`
		Headers map[string]string `json:"headers"`
		Limit   int64             `json:"limit"`
		Tags    []string          `json:"tags,omitempty"`
		private string
	}
	in := req{
		Query:   "cats",
		APIKey:  "k",
		Hidden:  "h",
		Creds:   &creds{User: "ann", Password: "pw"},
		Headers: map[string]string{"Cookie": "c=1", "Accept": "json"},
		Limit:   9007199254740993, // not representable as float64
		private: "p",
	}
	got := sanitizeInput(&in)
	want := map[string]any{
		"query":   "cats",
		"APIKey":  "[REDACTED]",
		"creds":   map[string]any{"user": "ann", "password": "[REDACTED]"},
		"headers": map[string]any{"Cookie": "[REDACTED]", "Accept": "json"},
		"limit":   json.Number("9007199254740993"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sanitizeInput = %#v\nwant %#v", got, want)
	}
}

func TestSanitizeInputSlice(t *testing.T) {
	got := sanitizeInput([]map[string]string{{"token": "t", "id": "1"}})
	want := []any{map[string]any{"token": "[REDACTED]", "id": "1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sanitizeInput = %#v, want %#v", got, want)
	}
}

func TestSanitizeInputRawJSON(t *testing.T) {
	got := sanitizeInput(json.RawMessage(`{"secret":"s","n":1}`))
	want := map[string]any{"secret": "[REDACTED]", "n": json.Number("1")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sanitizeInput = %#v, want %#v", got, want)
	}
}

func TestSanitizeInputUnloggable(t *testing.T) {
	type withChan struct{ C chan int }
	for _, v := range []any{
		withChan{C: make(chan int)},
		map[string]any{"f": func() {}},
	} {
		got, ok := sanitizeInput(v).(string)
		if !ok || !strings.HasPrefix(got, "[unloggable input: ") || !strings.HasSuffix(got, "]") {
			t.Errorf("sanitizeInput(%T) = %#v, want an [unloggable input: …] placeholder", v, got)
		}
	}
}
