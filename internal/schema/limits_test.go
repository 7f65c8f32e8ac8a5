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
	want := `20000 issues: unrecognized key "k00000"`
	for i := 1; i < 10; i++ {
		want += fmt.Sprintf(`; unrecognized key "k%05d"`, i)
	}
	want += "; and 19990 more"
	if got := res.Summary(); got != want {
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
	if s := res.Summary(); utf8.RuneCountInString(s) > 1100 {
		t.Errorf("summary of %d runes", utf8.RuneCountInString(s))
	}
	if s := Summary(res.Issues); utf8.RuneCountInString(s) > 1100 {
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
	if s := res.Summary(); utf8.RuneCountInString(s) > 1100 {
		t.Errorf("summary of %d runes", utf8.RuneCountInString(s))
	}
	// Both ends of a long path are kept, around an ellipsis.
	if s := res.Summary(); !strings.HasPrefix(s, "at children[0].children[0].") || !strings.HasSuffix(s, ".children[0].name: expected string, received number") ||
		!strings.Contains(s, "…") || utf8.RuneCountInString(s) > len("at : expected string, received number")+maxSummaryPathRunes {
		t.Errorf("summary = %q", s)
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
		if got, _ := rawShape([]byte(tt.in)); got != tt.want {
			t.Errorf("rawShape(%s) = %d, want %d", tt.in, got, tt.want)
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
	is := Issue{Path: []any{"a", 1}, Message: "expected string, received number", Keyword: "type"}
	root := Issue{Path: []any{}, Message: `unrecognized key "extra"`, Keyword: "additionalProperties"}
	city := Issue{Path: []any{"city"}, Message: `missing required property "city"`, Keyword: "required"}
	nested := Issue{Path: []any{"address", "zip"}, Message: `missing required property "zip"`, Keyword: "required"}
	many := func(n int) []Issue {
		out := make([]Issue, n)
		for i := range out {
			out[i] = Issue{Path: []any{"ids", i}, Message: "expected string, received number", Keyword: "type"}
		}
		return out
	}
	tenIDs := "at ids[0]: expected string, received number"
	for i := 1; i < 10; i++ {
		tenIDs += fmt.Sprintf("; at ids[%d]: expected string, received number", i)
	}
	tests := []struct {
		name string
		res  Result
		want string
	}{
		{"valid", Result{}, "Validation failed"},
		{"one, located", Result{Issues: []Issue{is}}, "at a[1]: expected string, received number"},
		{"one at the root", Result{Issues: []Issue{root}}, `unrecognized key "extra"`},
		{"missing, at its parent", Result{Issues: []Issue{city}}, `missing required property "city"`},
		{"missing, nested", Result{Issues: []Issue{nested}}, `at address: missing required property "zip"`},
		{"all listed", Result{Issues: []Issue{root, city, is}},
			`3 issues: unrecognized key "extra"; missing required property "city"; at a[1]: expected string, received number`},
		{"omitted counted", Result{Issues: []Issue{is, is}, Omitted: 3},
			"5 issues: at a[1]: expected string, received number; at a[1]: expected string, received number; and 3 more"},
		{"stopped", Result{Issues: []Issue{is, is}, Stopped: true},
			"2 or more issues: at a[1]: expected string, received number; at a[1]: expected string, received number"},
		{"stopped, one", Result{Issues: []Issue{is}, Stopped: true}, "1 or more issues: at a[1]: expected string, received number"},
		{"ten listed", Result{Issues: many(10)}, "10 issues: " + tenIDs},
		{"eleven", Result{Issues: many(11)}, "11 issues: " + tenIDs + "; and 1 more"},
		{"a hundred, stopped", Result{Issues: many(100), Omitted: 7, Stopped: true}, "107 or more issues: " + tenIDs + "; and 97 or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.res.Summary(); got != tt.want {
				t.Errorf("Summary =\n%q, want\n%q", got, tt.want)
			}
		})
	}
}

func TestSummaryPaths(t *testing.T) {
	tests := []struct {
		path []any
		want string
	}{
		{[]any{"items", 2, "name"}, "items[2].name"},
		{[]any{0}, "[0]"},
		{[]any{"a_b", "$c", "d9"}, "a_b.$c.d9"},
		{[]any{"first name", "x"}, `["first name"].x`},
		{[]any{"9lives", "a.b", ""}, `["9lives"]["a.b"][""]`},
		{[]any{"quote\"d", "é"}, `["quote\"d"]["é"]`},
		{[]any{"a", "…", "z", 1}, "a…z[1]"},
	}
	for _, tt := range tests {
		if got := pathString(tt.path); got != tt.want {
			t.Errorf("pathString(%v) = %s, want %s", tt.path, got, tt.want)
		}
	}
	// A property's name that its message does not quote stays in the path.
	is := Issue{Path: []any{"a", "b"}, Message: "missing required property", Keyword: "required"}
	if got, want := describeIssue(is), "at a.b: missing required property"; got != want {
		t.Errorf("describeIssue = %q, want %q", got, want)
	}
}

// Long issues fill the summary's budget before its count does: the first
// is always listed, the others while they fit, and the total stays bounded.
func TestSummaryBudget(t *testing.T) {
	long := Issue{Path: []any{strings.Repeat("p", 300)}, Message: strings.Repeat("m", 300), Keyword: "type"}
	issues := []Issue{long, long, long, long, long, long}
	s := Summary(issues)
	if n := utf8.RuneCountInString(s); n > 1100 {
		t.Errorf("summary of %d runes", n)
	}
	// Each issue takes 389 runes (its path cut to 128, its message to 256):
	// two fit in 1,000.
	if got := strings.Count(s, "; at "); got != 1 || !strings.HasSuffix(s, "; and 4 more") || !strings.HasPrefix(s, "6 issues: at ") {
		t.Errorf("summary lists %d issues after the first: %q", got, s)
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
