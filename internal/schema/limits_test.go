package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Unknown keys come in one error of the validator's: all are counted, the
// first MaxIssues listed.
func TestManyUnknownKeys(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	inst := map[string]any{"query": "q", "pmids": []any{}}
	for i := range 20_000 {
		inst[fmt.Sprintf("k%05d", i)] = 1
	}
	res := v.Check(inst)
	if len(res.Issues) != MaxIssues || res.Omitted != 20_000-MaxIssues || res.Stopped {
		t.Fatalf("%d issues, %d omitted, stopped %v", len(res.Issues), res.Omitted, res.Stopped)
	}
	if res.Issues[0].Message != `unrecognized key "k00000"` || res.Issues[99].Message != `unrecognized key "k00099"` {
		t.Errorf("first %s, last %s", res.Issues[0].Message, res.Issues[99].Message)
	}
	if got, want := res.Summary(), `unrecognized key "k00000" (+19999 more)`; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

func TestMessageBounds(t *testing.T) {
	long := strings.Repeat("é", 5000)
	v := mustValidator(t, schemaFromJSON(t, `{
		"type": "object",
		"properties": {
			"enum":    {"enum": ["`+strings.Repeat("a", 300)+`", "`+strings.Repeat("b", 300)+`"]},
			"pattern": {"type": "string", "pattern": "^`+strings.Repeat("x", 400)+`$"},
			"map":     {"type": "object", "additionalProperties": {"type": "string"}}
		},
		"additionalProperties": false
	}`))
	inst := map[string]any{
		"enum":    strings.Repeat("c", 1000),
		"pattern": "y",
		"map":     map[string]any{long: 1},
		long:      1,
	}
	res := v.Check(inst)
	if len(res.Issues) != 4 {
		t.Fatalf("issues: %s", marshal(t, res.Issues))
	}
	for _, is := range res.Issues {
		if n := utf8.RuneCountInString(is.Message); n > maxMessageRunes || !utf8.ValidString(is.Message) {
			t.Errorf("message of %d runes: %q", n, is.Message)
		}
		for _, seg := range is.Path {
			if s, ok := seg.(string); ok && (utf8.RuneCountInString(s) > maxSegmentRunes || !utf8.ValidString(s)) {
				t.Errorf("path segment of %d runes", utf8.RuneCountInString(s))
			}
		}
	}
	// The unrecognized key is cut, on a rune boundary, with an ellipsis.
	if want := `unrecognized key "` + strings.Repeat("é", maxMessageRunes-19) + "…"; res.Issues[0].Message != want {
		t.Errorf("message = %q", res.Issues[0].Message)
	}
	if want := []any{"map", strings.Repeat("é", maxSegmentRunes-1) + "…"}; !reflect.DeepEqual(res.Issues[2].Path, want) {
		t.Errorf("path = %q", res.Issues[2].Path)
	}
	if s := res.Summary(); utf8.RuneCountInString(s) > 500 {
		t.Errorf("summary of %d runes", utf8.RuneCountInString(s))
	}
	if s := Summary(res.Issues); utf8.RuneCountInString(s) > 500 {
		t.Errorf("Summary of %d runes", utf8.RuneCountInString(s))
	}
}

// Long issues fill the list's byte budget before its count: the rest are
// omitted, and counted.
func TestListByteBudget(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{"type":"object","additionalProperties":false}`))
	inst := map[string]any{}
	for i := range 300 {
		inst[fmt.Sprintf("%03d%s", i, strings.Repeat("é", 500))] = 1 // 0.5 KiB once cut
	}
	res := v.Check(inst)
	size := len(marshal(t, res.Issues))
	if size > maxListBytes || len(res.Issues) >= MaxIssues || len(res.Issues)+res.Omitted != 300 {
		t.Errorf("%d issues in %d bytes, %d omitted", len(res.Issues), size, res.Omitted)
	}
}

func TestPathBound(t *testing.T) {
	v := mustValidator(t, mustInput[node](t))
	var b strings.Builder
	for range 200 {
		b.WriteString(`{"name":"a","children":[`)
	}
	b.WriteString(`{"name":1}`)
	for range 200 {
		b.WriteString(`]}`)
	}
	_, res, err := v.CheckJSON([]byte(b.String()))
	if err != nil || len(res.Issues) != 1 {
		t.Fatalf("%v %s", err, marshal(t, res))
	}
	p := res.Issues[0].Path
	if len(p) != maxPathSegments || p[0] != "children" || p[maxPathSegments/2] != "…" || p[len(p)-1] != "name" {
		t.Errorf("path = %v", p)
	}
	if s := res.Summary(); utf8.RuneCountInString(s) > 500 {
		t.Errorf("summary of %d runes", utf8.RuneCountInString(s))
	}
}

func TestMaxDepth(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{}`))
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	want := Result{Issues: []Issue{{Path: []any{}, Message: "value is nested more than 1000 levels deep"}}}
	for _, tt := range []struct {
		depth int
		ok    bool
	}{{MaxDepth, true}, {MaxDepth + 1, false}, {5000, false}} {
		_, res, err := v.CheckJSON([]byte(nested(tt.depth)))
		if err != nil {
			t.Fatal(err)
		}
		if res.Valid() != tt.ok || (!tt.ok && !reflect.DeepEqual(res, want)) {
			t.Errorf("CheckJSON, depth %d: %s", tt.depth, marshal(t, res))
		}
		if res := v.Check(decode(t, nested(tt.depth))); res.Valid() != tt.ok {
			t.Errorf("Check, depth %d: %s", tt.depth, marshal(t, res))
		}
		// A Go value is measured after encoding.
		if res := v.Check(json.RawMessage(nested(tt.depth))); res.Valid() != tt.ok {
			t.Errorf("Check of a Go value, depth %d: %s", tt.depth, marshal(t, res))
		}
	}
}

func TestRawDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`[]`, 1},
		{`{"a":[{}]}`, 3},
		{`["[[[", "\"[[", "\\"]`, 1},
		{`{"a\\\"{":[]}`, 2},
	}
	for _, tt := range tests {
		if got := rawDepth([]byte(tt.in)); got != tt.want {
			t.Errorf("rawDepth(%s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"ééé", 3, "ééé"},
		{"éééé", 3, "éé…"},
		{"a\xffbcd", 3, "a\xff…"},
		{"", 3, ""},
	}
	for _, tt := range tests {
		if got := cut(tt.in, tt.n); got != tt.want {
			t.Errorf("cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestResultSummary(t *testing.T) {
	is := Issue{Path: []any{"a", 1}, Message: "expected string, received number"}
	tests := []struct {
		res  Result
		want string
	}{
		{Result{}, "Validation failed"},
		{Result{Issues: []Issue{is}}, "expected string, received number at a.1"},
		{Result{Issues: []Issue{is, is}, Omitted: 3}, "expected string, received number at a.1 (+4 more)"},
		{Result{Issues: []Issue{is, is}, Stopped: true}, "expected string, received number at a.1 (+1 or more)"},
		{Result{Issues: []Issue{is}, Stopped: true}, "expected string, received number at a.1 (possibly more)"},
	}
	for _, tt := range tests {
		if got := tt.res.Summary(); got != tt.want {
			t.Errorf("Summary = %q, want %q", got, tt.want)
		}
	}
}

func TestJSONLen(t *testing.T) {
	var all strings.Builder
	for c := range 0x80 {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "plain", all.String(), "é€😀", "\u2028\u2029", "a\xffb\xc3", `<a href="x">&amp;</a>`} {
		for _, is := range []Issue{
			{Path: []any{}, Message: s, Keyword: "type"},
			{Path: []any{s, 0, 12345, -1, "k"}, Message: "m", Keyword: s},
		} {
			if got, want := jsonLen(is), len(marshal(t, is)); got != want {
				t.Errorf("jsonLen(%q) = %d, want %d", marshal(t, is), got, want)
			}
		}
	}
}
