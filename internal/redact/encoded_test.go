package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestEncoded(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"scalars", `[1, -2.5e3, true, false, null, "x"]`, `[1,-2.5e3,true,false,null,"x"]`},
		{"exact numbers", `{"n":12345678901234567890.000001}`, `{"n":12345678901234567890.000001}`},
		{"sensitive key, any value", `{"token":{"a":[1,"b"]},"password":7,"ok":1}`, `{"token":"[REDACTED]","password":"[REDACTED]","ok":1}`},
		{"string scrubbed at any depth", `{"a":[{"b":"password=hunter2 at x"}]}`, `{"a":[{"b":"password=[REDACTED] at x"}]}`},
		{"keys stay", `{"Api Key ":"x","Retry-After":"y"}`, `{"Api Key ":"[REDACTED]","Retry-After":"y"}`},
		{"member order stays", `{"z":1,"a":2}`, `{"z":1,"a":2}`},
		{"escapes decoded before scrubbing", `{"u":"https://h/?api_key\u003dK3Y\n"}`, `{"u":"https://h/?api_key=[REDACTED]\n"}`},
		{"escaped key", `{"pass\u0077ord":"x"}`, `{"pass\u0077ord":"[REDACTED]"}`},
		{"clean escapes kept", `{"a":"line\nnext \"q\""}`, `{"a":"line\nnext \"q\""}`},
		{"bare string", `"Bearer abc.def"`, `"Bearer [REDACTED]"`},
		{"empty containers", `{"a":{},"b":[],"c":""}`, `{"a":{},"b":[],"c":""}`},
		{"whitespace dropped", " {\n\t\"a\" : [ 1 , 2 ] \r}\n", `{"a":[1,2]}`},
		{"invalid UTF-8 replaced", "{\"a\":\"x\xffy\"}", "{\"a\":\"x\uFFFDy\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := Encoded([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("Encoded(%s)\n got %s\nwant %s", tc.in, out, tc.want)
			}
		})
	}
}

func TestEncodedRefusesWhatIsNotJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a" 1}`, `[1,]`, `"x`, `1 2`, `{"a":1}}`, "\"\x01\""} {
		if out, _, err := Encoded([]byte(in)); err == nil {
			t.Errorf("Encoded(%q) = %s, want an error", in, out)
		}
	}
}

func TestEncodedFinds(t *testing.T) {
	in := `{"hint":"top","recovery":{"other":{"hint":"deep"},"hint":"Retry with token=abc."}}`
	_, found, err := Encoded([]byte(in), "recovery", "hint")
	if err != nil {
		t.Fatal(err)
	}
	if want := String("Retry with token=abc."); found != want || !strings.Contains(found, Marker) {
		t.Errorf("found %q, want %q", found, want)
	}
	for _, in := range []string{`{"recovery":{"hint":3}}`, `{"recovery":["hint"]}`, `["recovery"]`, `{"recovery":{}}`, `{"token":{"recovery":{"hint":"x"}}}`} {
		if _, found, _ := Encoded([]byte(in), "recovery", "hint"); found != "" {
			t.Errorf("Encoded(%s) found %q, want nothing", in, found)
		}
	}
}

// The encoded walk and the tree agree on every JSON value: same members,
// same values, the same secrets gone.
func FuzzEncoded(f *testing.F) {
	f.Add(`{"a":"password=x","token":[1,{"b":2}],"c":[true,null,"Bearer q.r"]}`)
	f.Add(`[{"api_key":"k"},"https://u:p@h/x?token=1",-0.0e-7]`)
	f.Add(`{"recovery":{"hint":"set \u0022key\u0022: v"}}`)
	f.Add(`"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----"`)
	f.Add(`{"a":{"a":{"a":{"secret":{"a":"b"}}}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		out, _, err := Encoded([]byte(in))
		if !json.Valid([]byte(in)) {
			if err == nil {
				t.Fatalf("Encoded(%q) accepted what is not JSON", in)
			}
			return
		}
		if err != nil {
			t.Fatalf("Encoded(%q): %v", in, err)
		}
		if !json.Valid(out) {
			t.Fatalf("Encoded(%q) = %q, not JSON", in, out)
		}
		want, err := JSON(json.RawMessage(in))
		if err != nil {
			t.Fatalf("JSON(%q): %v", in, err)
		}
		if got := decodeNumbers(t, out); !reflect.DeepEqual(got, want) {
			t.Fatalf("Encoded(%q)\n = %s\nwhich is %#v\nthe tree is %#v", in, out, got, want)
		}
		again, _, err := Encoded(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %s then %s (%v)", out, again, err)
		}
	})
}

func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

var sinkBytes []byte

func BenchmarkEncoded(b *testing.B) {
	data := []byte(`{"reason":"asked_to_fail","recovery":{"hint":"Call the tool again with fail set to false."}}`)
	b.Run("walk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBytes, sinkString, _ = Encoded(data, "recovery", "hint")
		}
	})
	b.Run("tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tree, _ := JSON(json.RawMessage(data))
			sinkBytes, _ = json.Marshal(tree)
		}
	})
}
