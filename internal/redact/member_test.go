package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"
)

// surfaces sends a value of failure data, or a log attribute, through every
// structured surface and returns what each sends, as JSON text.
func surfaces(t *testing.T, v map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	if b, _, ok := Value(v); ok {
		out["Value"] = string(b)
	} else {
		t.Fatalf("Value refused %#v", v)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if b, _, err := Encoded(raw); err == nil {
		out["Encoded"] = string(b)
	}
	out["Copy"] = marshalPlain(Copy(v))
	var fresh map[string]any
	_ = json.Unmarshal(raw, &fresh)
	out["Tree"] = marshalPlain(Tree(fresh))
	var buf bytes.Buffer
	logger := slog.New(Handler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey {
			return slog.Attr{}
		}
		return a
	}})))
	var attrs []any
	for k, val := range v {
		attrs = append(attrs, k, val)
	}
	logger.Info("m", attrs...)
	out["Handler"] = buf.String()
	return out
}

// The value of a sensitive key goes when it is a credential and stays when
// it is prose, a status or a name, on every structured surface alike.
func TestMemberRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		key   string
		value any
		gone  bool
	}{
		{"prose", "password", "must have at least 8 characters", false},
		{"prose list", "password", []any{"This password is too short.", "can't be blank"}, false},
		{"status", "token", "expired", false},
		{"null", "token", nil, false},
		{"boolean", "password_set", true, false},
		{"placeholder", "api_key", "<your-api-key>", false},
		{"one word", "password", "hunter2", true},
		{"passphrase", "password", "correct horse battery staple", true},
		{"cookie pairs", "Cookie", "sid=7Fq2Zx9LmW3pKd8R; theme=dark", true},
		{"scheme and credentials", "Authorization", "Bearer b3arerT0ken", true},
		{"number", "cvv", 123, true},
		{"object", "credentials_token", map[string]any{"value": "x"}, true},
		{"list of one word", "password", []any{"hunter2"}, true},
		{"key, a name", "key", "created_at", false},
		{"key, a number", "key", 42, false},
		{"key, a token", "key", "Zq9xW2kPm4Lr", true},
		{"key, an object", "key", map[string]any{"name": "title"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := map[string]any{tc.key: tc.value, "n": 1}
			raw, _ := json.Marshal(in)
			for surface, out := range surfaces(t, in) {
				var got map[string]any
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%s: %q: %v", surface, out, err)
				}
				var want map[string]any
				_ = json.Unmarshal(raw, &want)
				if tc.gone {
					want[tc.key] = Marker
					if _, ok := tc.value.([]any); ok {
						want[tc.key] = []any{Marker}
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s sent %s, want %v", surface, out, want)
				}
			}
		})
	}
}

// Keys are scrubbed like values: a key that held a secret is sent
// scrubbed, with its value redacted, on every structured surface and in a
// log record.
func TestKeysScrubbed(t *testing.T) {
	const secret = "Q7xK2mP9vLw4Rt8Zb3Nc"
	in := map[string]any{
		"Bearer " + secret:         "user ann",
		"ghp_" + secret:            map[string]any{"repo": "notes"},
		"password=" + secret:       1,
		"plain":                    "kept",
		"nested":                   map[string]any{"sk_live_" + secret: "x"},
		"token is " + secret + "!": true,
	}
	for surface, out := range surfaces(t, in) {
		if strings.Contains(out, secret) {
			t.Errorf("%s sent the secret in a key: %s", surface, out)
		}
		if !strings.Contains(out, `"Bearer [REDACTED]":"[REDACTED]"`) || !strings.Contains(out, `"plain":"kept"`) {
			t.Errorf("%s: %s", surface, out)
		}
	}
	// Two keys that scrub alike send one member, whatever their order.
	twin := map[string]any{"Bearer " + secret: "a", "Bearer z" + secret: "b", "Bearer [REDACTED]": "c"}
	raw, _ := json.Marshal(twin)
	out, _, err := Encoded(raw)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	_ = json.Unmarshal(out, &got)
	if want := map[string]any{"Bearer [REDACTED]": Marker}; !reflect.DeepEqual(got, want) || !reflect.DeepEqual(Tree(decodeNumbers(t, raw)), want) {
		t.Errorf("Encoded = %s, Tree = %v; want %v", out, Tree(decodeNumbers(t, raw)), want)
	}
}

// Bytes in failure data are scrubbed as text before they are encoded:
// encoding/json sends them base64-encoded, which no later scrubbing of the
// text can read.
func TestBytesScrubbed(t *testing.T) {
	body := []byte(`{"error":"denied","access_token":"Q7xK2mP9vLw4Rt8Zb3Nc"} sent Bearer Q7xK2mP9vLw4Rt8Zb3Nc`)
	want := String(string(body))
	if !strings.Contains(want, Marker) || strings.Contains(want, "Q7xK2") {
		t.Fatalf("String does not scrub the body: %s", want)
	}
	decode := func(surface string, v any) {
		t.Helper()
		if s, ok := v.(string); !ok || s != want {
			t.Errorf("%s sent the bytes as %#v, want %q", surface, v, want)
		}
	}
	in := func() map[string]any { return map[string]any{"body": append([]byte(nil), body...)} }
	out, _, ok := Value(in())
	if !ok {
		t.Fatal("Value refused []byte")
	}
	var sent map[string]any
	if err := json.Unmarshal(out, &sent); err != nil {
		t.Fatal(err)
	}
	decode("Value", sent["body"])
	decode("Tree", Tree(in()).(map[string]any)["body"])
	decode("Copy", Copy(in()).(map[string]any)["body"])
	decode("Copy of bytes", Copy(body))
	j, err := JSON(body)
	if err != nil {
		t.Fatal(err)
	}
	decode("JSON", j)

	// Under a sensitive key, bytes are judged as the text they hold.
	out, _, _ = Value(map[string]any{"token": []byte("Q7xK2mP9vLw4Rt8Zb3Nc"), "password": []byte("must have 8 characters")})
	if string(out) != `{"password":"must have 8 characters","token":"[REDACTED]"}` {
		t.Errorf("Value = %s", out)
	}
	// Binary bytes go base64-encoded, as encoding/json sends them.
	bin := []byte{0xff, 0xfe, 'x'}
	if got := Tree([]any{bin}).([]any)[0]; got != base64.StdEncoding.EncodeToString(bin) {
		t.Errorf("Tree(binary) = %#v", got)
	}
}
