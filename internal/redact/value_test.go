package redact

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// asEncoded is what Value must give: Encoded of what encoding/json makes
// of v.
func asEncoded(t *testing.T, v any, find ...string) ([]byte, string) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	out, found, err := Encoded(raw, find...)
	if err != nil {
		t.Fatal(err)
	}
	return out, found
}

// asText replaces each []byte in v, at any depth, by the string Value
// sends for it.
func asText(v any) any {
	switch t := v.(type) {
	case []byte:
		if t != nil {
			return bytesText(t)
		}
	case map[string]any:
		if t == nil {
			return t
		}
		out := make(map[string]any, len(t))
		for k, val := range t {
			out[k] = asText(val)
		}
		return out
	case []any:
		if t == nil {
			return t
		}
		out := make([]any, len(t))
		for i, val := range t {
			out[i] = asText(val)
		}
		return out
	}
	return v
}

func checkValue(t *testing.T, v any, find ...string) {
	t.Helper()
	got, found, ok := Value(v, find...)
	if !ok {
		t.Fatalf("Value(%#v) refused a shape it knows", v)
	}
	want, wantFound := asEncoded(t, asText(v), find...)
	if !bytes.Equal(got, want) || found != wantFound {
		t.Fatalf("Value(%#v)\n got %s (found %q)\nwant %s (found %q)", v, got, found, want, wantFound)
	}
}

func TestValueAsEncoded(t *testing.T) {
	for name, v := range map[string]any{
		"failure data": map[string]any{"reason": "no_match", "recovery": map[string]any{"hint": "Pass at least one PMID."},
			"pmids": []string{"1", "2"}, "url": "https://h/x?api_key=K3Y&db=pubmed", "status": 429},
		"sensitive keys, any value": map[string]any{"token": map[string]any{"a": []any{1, "b"}}, "password": 7, "Api Key ": "x", "ok": true},
		"strings scrubbed at depth": []any{map[string]any{"b": "password=hunter2 at x"}, "Bearer abc.def", nil},
		"escapes":                   map[string]any{"a": "line\nnext \"q\" <b>&amp;</b>\u2028\u2029\x7f\x00", "é": "ü"},
		"invalid UTF-8":             map[string]any{"k\xffey": "x\xffy", "password\xfe": "z", "l": []string{"\xc3", "ok"}},
		"typed maps and slices":     map[string]any{"m": map[string]string{"secret": "s", "b": "Bearer t", "a": "1"}, "s": []string{}, "n": []any{}},
		"nil containers":            map[string]any{"m": map[string]any(nil), "s": []string(nil), "a": []any(nil), "t": map[string]string(nil)},
		"integers":                  []any{int8(-8), int16(16), int32(-32), int64(math.MinInt64), uint(1), uint8(8), uint16(16), uint32(32), uint64(math.MaxUint64), 0},
		"floats":                    []any{0.0, math.Copysign(0, -1), 0.1, 1e20, 1e21, 1e-6, 1e-7, -2.5e-9, 5e-324, math.MaxFloat64, 123456789.125},
		"empty key":                 map[string]any{"": "x", " ": 1},
		"bytes":                     map[string]any{"body": []byte("token=Q7xK2mP9vLw4 and text"), "bin": []byte{0xff, 0}, "nil": []byte(nil), "token": []byte("hunter2")},
		"secret keys":               map[string]any{"Bearer Q7xK2mP9vLw4Rt8Zb3Nc": "x", "Bearer [REDACTED]": "y", "ok": map[string]any{"password=hunter2": 1}},
		"sensitive keys, judged":    map[string]any{"password": "must have 8 characters", "token": []any{"expired", "Q7xK2mP9", 7, nil, true}, "key": map[string]any{"id": 1}, "cvv": 123},
		"a string":                  "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
		"nil":                       nil,
	} {
		t.Run(name, func(t *testing.T) { checkValue(t, v) })
	}
}

func TestValueFinds(t *testing.T) {
	for name, v := range map[string]any{
		"hint":                   map[string]any{"recovery": map[string]any{"hint": "retry with token=abc"}},
		"hint not a string":      map[string]any{"recovery": map[string]any{"hint": 3}},
		"no recovery":            map[string]any{"reason": "x"},
		"recovery not an object": map[string]any{"recovery": "hint"},
		"hint in a list":         map[string]any{"recovery": []any{map[string]any{"hint": "x"}}},
		"hint typed":             map[string]any{"recovery": map[string]string{"hint": "h", "password": "p"}},
		"hint under a secret":    map[string]any{"secret": map[string]any{"hint": "x"}},
	} {
		t.Run(name, func(t *testing.T) { checkValue(t, v, "recovery", "hint") })
	}
	checkValue(t, map[string]any{"password": map[string]any{"hint": "x"}}, "password", "hint")
}

// TestValueRefuses: a shape Value does not know, or one encoding/json
// refuses, is left to the caller, whole.
func TestValueRefuses(t *testing.T) {
	type point struct{ X int }
	cycle := map[string]any{}
	cycle["self"] = cycle
	deep := any("x")
	for range maxValueDepth + 1 {
		deep = []any{deep}
	}
	for name, v := range map[string]any{
		"struct":              map[string]any{"p": point{1}},
		"pointer":             []any{&point{1}},
		"map of ints":         map[string]int{"a": 1},
		"float32":             float32(1.5),
		"NaN":                 []any{math.NaN()},
		"infinity":            map[string]any{"x": math.Inf(-1)},
		"a channel":           map[string]any{"c": make(chan int)},
		"under a secret, too": map[string]any{"token": make(chan int)},
		"raw JSON":            json.RawMessage(`{}`),
		"a cycle":             cycle,
		"nested too deep":     deep,
	} {
		if out, found, ok := Value(v, "recovery", "hint"); ok || out != nil || found != "" {
			t.Errorf("%s: Value = %q, %q, %v; want it refused", name, out, found, ok)
		}
	}
}

// FuzzValue holds Value to Encoded of encoding/json's text, for every value
// a JSON text decodes to, and for strings of any bytes as keys and values.
func FuzzValue(f *testing.F) {
	f.Add(`{"a":"password=x","token":[1,{"b":2}],"c":[true,null,"Bearer q.r"]}`)
	f.Add(`{"recovery":{"hint":"set \u0022key\u0022: v"},"n":-0.0e-7}`)
	f.Add("\xff<&>\u2028")
	f.Fuzz(func(t *testing.T, in string) {
		var v any
		if json.Unmarshal([]byte(in), &v) == nil {
			checkValue(t, v, "recovery", "hint")
		}
		checkValue(t, map[string]any{in: in, "recovery": map[string]any{"hint": in}, "l": []string{in}, "b": []byte(in),
			"password": in, "key": []any{in, []byte(in)}}, "recovery", "hint")
	})
}

func BenchmarkValue(b *testing.B) {
	data := map[string]any{"reason": "no_match", "recovery": map[string]any{"hint": "Pass at least one PMID, such as 31452104."}}
	b.Run("walk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBytes, _, _ = Value(data, "recovery", "hint")
		}
	})
	b.Run("marshal+encoded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raw, _ := json.Marshal(data)
			sinkBytes, _, _ = Encoded(raw, "recovery", "hint")
		}
	})
}
