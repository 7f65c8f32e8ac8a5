package redact

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestTree(t *testing.T) {
	in := map[string]any{
		"query":    "cats",
		"password": "hunter2",
		"nested": map[string]any{
			"accessToken": "abc",
			"list": []any{
				map[string]any{"api_key": "k1", "id": json.Number("1")},
				"plain",
				"see https://u:pw@h/",
				map[string]any{"credentials": map[string]any{"secret": "s"}},
			},
		},
		// A sensitive key's whole subtree goes.
		"authorization": map[string]any{"scheme": "Bearer", "value": "t"},
		"n":             json.Number("9007199254740993"),
		"ok":            true,
		"none":          nil,
	}
	want := map[string]any{
		"query":    "cats",
		"password": Marker,
		"nested": map[string]any{
			"accessToken": Marker,
			"list": []any{
				map[string]any{"api_key": Marker, "id": json.Number("1")},
				"plain",
				"see https://[REDACTED]@h/",
				map[string]any{"credentials": map[string]any{"secret": Marker}},
			},
		},
		"authorization": Marker,
		"n":             json.Number("9007199254740993"),
		"ok":            true,
		"none":          nil,
	}
	if got := Tree(in); !reflect.DeepEqual(got, want) {
		t.Errorf("Tree = %#v\nwant %#v", got, want)
	}
	if got := Tree("token=abc"); got != "token=[REDACTED]" {
		t.Errorf("Tree(string) = %#v", got)
	}
	if got := Tree(json.Number("3")); got != json.Number("3") {
		t.Errorf("Tree(number) = %#v", got)
	}
}

// panicky's MarshalJSON panics, as a careless one might.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("boom") }

// failing's MarshalJSON fails with a message that holds a secret.
type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("password=hunter2") }

func TestJSON(t *testing.T) {
	type creds struct {
		User  string `json:"user"`
		Token string `json:"token"` // named token in JSON only
		Skip  string `json:"-"`
	}
	type req struct {
		Query   string            `json:"query"`
		APIKey  string            // no tag: key "APIKey"
		Creds   *creds            `json:"creds"`
		Headers map[string]string `json:"headers"`
		Limit   int64             `json:"limit"`
		private string
	}
	in := req{
		Query:   "cats",
		APIKey:  "k",
		Creds:   &creds{User: "ann", Token: "t", Skip: "s"},
		Headers: map[string]string{"Cookie": "c=1", "Accept": "json"},
		Limit:   9007199254740993, // not representable as float64
		private: "p",
	}
	got, err := JSON(&in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"query":   "cats",
		"APIKey":  Marker,
		"creds":   map[string]any{"user": "ann", "token": Marker},
		"headers": map[string]any{"Cookie": Marker, "Accept": "json"},
		"limit":   json.Number("9007199254740993"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JSON = %#v\nwant %#v", got, want)
	}
	if in.Creds.Token != "t" || in.Headers["Cookie"] != "c=1" {
		t.Error("JSON modified its input")
	}

	raw, err := JSON(json.RawMessage(`{"secret":"s","n":1}`))
	if err != nil || !reflect.DeepEqual(raw, map[string]any{"secret": Marker, "n": json.Number("1")}) {
		t.Errorf("JSON(RawMessage) = %#v, %v", raw, err)
	}
	if v, err := JSON(nil); v != nil || err != nil {
		t.Errorf("JSON(nil) = %#v, %v", v, err)
	}
}

func TestJSONUnencodable(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for name, v := range map[string]any{
		"chan":     map[string]any{"c": make(chan int)},
		"func":     []any{func() {}},
		"cycle":    cyclic,
		"panics":   panicky{},
		"fails":    failing{},
		"bad json": json.RawMessage(`{`),
	} {
		got, err := JSON(v)
		if err == nil || got != nil {
			t.Errorf("%s: JSON = %#v, %v; want an error", name, got, err)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error carries the secret: %v", name, err)
		}
	}
}

// errorData is error data as a tool author builds it: keys set on purpose,
// some of them named for credentials, and strings that carry secrets at
// every depth.
func errorData() map[string]any {
	return map[string]any{
		"limit":     json.Number("100"),
		"retryable": true,
		"key":       "K3Y-bare-9xQ2mZ7w",
		"x-api-key": "K3Y-header",
		"passwd":    "hunter2",
		"upstream": map[string]any{
			"url":    "https://h/v1?api_key=K3Y-query&sig=S1G&q=cats",
			"status": 401.0,
			"body":   []any{"password = correct horse battery", "password = hunter2 (expired)", map[string]any{"X-Amz-Signature": "S1G", "note": "ok"}},
		},
		"hint": "check the key",
	}
}

// keysOf lists every key path of a tree, so that two trees can be
// compared by their keys alone.
func keysOf(v any, path string, out map[string]bool) map[string]bool {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			out[path+"/"+k] = true
			keysOf(val, path+"/"+k, out)
		}
	case []any:
		for i, val := range t {
			keysOf(val, path+"/"+string(rune('0'+i)), out)
		}
	}
	return out
}

// Tree and Copy keep every key the author set, replace the values of the
// sensitive ones that look like credentials, and scrub every string at any
// depth: the rule for error data on its way to the wire. Prose stays.
func TestTreeKeepsKeys(t *testing.T) {
	want := map[string]any{
		"limit":     json.Number("100"),
		"retryable": true,
		"key":       Marker,
		"x-api-key": Marker,
		"passwd":    Marker,
		"upstream": map[string]any{
			"url":    "https://h/v1?api_key=[REDACTED]&sig=[REDACTED]&q=cats",
			"status": 401.0,
			"body":   []any{"password = correct horse battery", "password = [REDACTED] (expired)", map[string]any{"X-Amz-Signature": Marker, "note": "ok"}},
		},
		"hint": "check the key",
	}
	wantKeys := keysOf(errorData(), "", map[string]bool{})
	for name, redacted := range map[string]any{"Tree": Tree(errorData()), "Copy": Copy(errorData())} {
		if !reflect.DeepEqual(redacted, want) {
			t.Errorf("%s = %#v\nwant %#v", name, redacted, want)
		}
		if got := keysOf(redacted, "", map[string]bool{}); !reflect.DeepEqual(got, wantKeys) {
			t.Errorf("%s keys = %v, want %v", name, got, wantKeys)
		}
	}
}

func TestCopyLeavesItsInput(t *testing.T) {
	in := errorData()
	out := Copy(in)
	if !reflect.DeepEqual(in, errorData()) {
		t.Errorf("Copy modified its input: %#v", in)
	}
	// The copy shares nothing with the input: changing one leaves the
	// other.
	out.(map[string]any)["upstream"].(map[string]any)["body"].([]any)[0] = "changed"
	if in["upstream"].(map[string]any)["body"].([]any)[0] != "password = correct horse battery" {
		t.Error("the copy shares a slice with its input")
	}
}

func TestCopyValues(t *testing.T) {
	type creds struct {
		User  string `json:"user"`
		Token string `json:"token"`
	}
	in := map[string]any{
		"n":      3,
		"f":      1.5,
		"num":    json.Number("9007199254740993"),
		"nil":    nil,
		"list":   []string{"token=T0K", "plain"},
		"byName": map[string]string{"api_key": "K3Y", "q": "cats"},
		"creds":  &creds{"ann", "T0K"},
		"raw":    json.RawMessage(`{"secret":"s","n":1}`),
		"ch":     make(chan int),
	}
	out := Copy(in).(map[string]any)
	want := map[string]any{
		"n":      3,
		"f":      1.5,
		"num":    json.Number("9007199254740993"),
		"nil":    nil,
		"list":   []any{"token=[REDACTED]", "plain"},
		"byName": map[string]any{"api_key": Marker, "q": "cats"},
		"creds":  map[string]any{"user": "ann", "token": Marker},
		"raw":    map[string]any{"secret": Marker, "n": json.Number("1")},
	}
	ch, _ := out["ch"].(string)
	delete(out, "ch")
	if !strings.HasPrefix(ch, "[unencodable value: ") {
		t.Errorf("Copy(chan) = %q, want an [unencodable value: …] placeholder", ch)
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("Copy = %#v\nwant %#v", out, want)
	}
	if in["creds"].(*creds).Token != "T0K" || in["byName"].(map[string]string)["api_key"] != "K3Y" {
		t.Error("Copy modified a typed value of its input")
	}
	for _, v := range []any{nil, "token=T0K", 7, map[string]any(nil), []any(nil), []any{}} {
		got := Copy(v)
		if s, ok := v.(string); ok {
			v = String(s)
		}
		if !reflect.DeepEqual(got, v) {
			t.Errorf("Copy(%#v) = %#v", v, got)
		}
	}
}

// A tree that shares a subtree or holds a cycle, as code (not JSON) can
// build, is redacted once per container, without looping; Copy keeps its
// shape.
func TestTreeCycles(t *testing.T) {
	build := func() (map[string]any, map[string]any) {
		shared := map[string]any{"token": "T0K", "note": "password=hunter2"}
		root := map[string]any{"a": shared, "b": shared, "list": []any{shared, "x"}}
		root["self"] = root
		root["list"].([]any)[1] = root["list"]
		return root, shared
	}
	root, shared := build()
	Tree(root)
	if shared["token"] != Marker || shared["note"] != "password=[REDACTED]" {
		t.Errorf("Tree of a cyclic tree: shared = %#v", shared)
	}

	root, shared = build()
	out := Copy(root).(map[string]any)
	if shared["token"] != "T0K" {
		t.Error("Copy modified its cyclic input")
	}
	if reflect.ValueOf(out["self"]).Pointer() != reflect.ValueOf(out).Pointer() {
		t.Error("Copy did not keep the cycle")
	}
	a, b := out["a"].(map[string]any), out["b"].(map[string]any)
	if reflect.ValueOf(a).Pointer() != reflect.ValueOf(b).Pointer() || a["token"] != Marker || a["note"] != "password=[REDACTED]" {
		t.Errorf("Copy of a shared subtree: a = %#v, b = %#v", a, b)
	}
	if reflect.ValueOf(a).Pointer() == reflect.ValueOf(shared).Pointer() {
		t.Error("Copy shares a map with its input")
	}
}
