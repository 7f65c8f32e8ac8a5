package schema

import (
	"math/rand/v2"
	"net/mail"
	"reflect"
	"strings"
	"testing"
)

// Each keyword tag is published in the inferred schema and enforced, with
// the issue the hand-written keyword gets.
func TestKeywordTags(t *testing.T) {
	tests := []struct {
		name      string
		typ       reflect.Type
		published string // the schema of property "v"
		pass      string // a valid argument object
		fail      string // an invalid one
		want      Issue  // its only issue
	}{
		{"minLength", reflect.TypeFor[struct {
			V string `json:"v" minLength:"2"`
		}](), `{"type":"string","minLength":2}`, `{"v":"ab"}`, `{"v":"a"}`,
			issue("minLength", "expected a string of at least 2 characters, received 1", "v")},
		{"maxLength", reflect.TypeFor[struct {
			V string `json:"v" maxLength:"3"`
		}](), `{"type":"string","maxLength":3}`, `{"v":"abc"}`, `{"v":"abcd"}`,
			issue("maxLength", "expected a string of at most 3 characters, received 4", "v")},
		{"pattern", reflect.TypeFor[struct {
			V string `json:"v" pattern:"^[a-z]+$"`
		}](), `{"type":"string","pattern":"^[a-z]+$"}`, `{"v":"abc"}`, `{"v":"ab1"}`,
			issue("pattern", `expected a string matching the pattern "^[a-z]+$"`, "v")},
		{"format email", reflect.TypeFor[struct {
			V string `json:"v" format:"email"`
		}](), `{"type":"string","format":"email"}`, `{"v":"ann@example.com"}`, `{"v":"Ann <ann@example.com>"}`,
			issue("format", `expected a string in the format "email"`, "v")},
		{"format uri", reflect.TypeFor[struct {
			V string `json:"v" format:"uri"`
		}](), `{"type":"string","format":"uri"}`, `{"v":"https://example.com/a?b=c"}`, `{"v":"/relative/path"}`,
			issue("format", `expected a string in the format "uri"`, "v")},
		{"format date", reflect.TypeFor[struct {
			V string `json:"v" format:"date"`
		}](), `{"type":"string","format":"date"}`, `{"v":"2026-02-28"}`, `{"v":"2026-02-30"}`,
			issue("format", `expected a string in the format "date"`, "v")},
		{"format date-time", reflect.TypeFor[struct {
			V string `json:"v" format:"date-time"`
		}](), `{"type":"string","format":"date-time"}`, `{"v":"2026-02-28T10:00:00.5+01:00"}`, `{"v":"2026-02-28 10:00"}`,
			issue("format", `expected a string in the format "date-time"`, "v")},
		{"format uuid", reflect.TypeFor[struct {
			V string `json:"v" format:"uuid"`
		}](), `{"type":"string","format":"uuid"}`, `{"v":"123e4567-E89B-12d3-a456-426614174000"}`, `{"v":"123e4567e89b12d3a456426614174000"}`,
			issue("format", `expected a string in the format "uuid"`, "v")},
		{"minimum", reflect.TypeFor[struct {
			V int `json:"v" minimum:"1"`
		}](), `{"type":"integer","minimum":1}`, `{"v":1}`, `{"v":0}`,
			issue("minimum", "expected a number >= 1, received 0", "v")},
		{"maximum", reflect.TypeFor[struct {
			V float64 `json:"v" maximum:"2.5"`
		}](), `{"type":"number","maximum":2.5}`, `{"v":2.5}`, `{"v":2.6}`,
			issue("maximum", "expected a number <= 2.5, received 2.6", "v")},
		{"exclusiveMinimum", reflect.TypeFor[struct {
			V float64 `json:"v" exclusiveMinimum:"0"`
		}](), `{"type":"number","exclusiveMinimum":0}`, `{"v":0.1}`, `{"v":0}`,
			issue("exclusiveMinimum", "expected a number > 0, received 0", "v")},
		{"exclusiveMaximum", reflect.TypeFor[struct {
			V int `json:"v" exclusiveMaximum:"10"`
		}](), `{"type":"integer","exclusiveMaximum":10}`, `{"v":9}`, `{"v":10}`,
			issue("exclusiveMaximum", "expected a number < 10, received 10", "v")},
		{"multipleOf", reflect.TypeFor[struct {
			V int `json:"v" multipleOf:"5"`
		}](), `{"type":"integer","multipleOf":5}`, `{"v":15}`, `{"v":12}`,
			issue("multipleOf", "expected a multiple of 5, received 12", "v")},
		{"minItems", reflect.TypeFor[struct {
			V []int `json:"v" minItems:"1"`
		}](), `{"type":"array","items":{"type":"integer"},"minItems":1}`, `{"v":[1]}`, `{"v":[]}`,
			issue("minItems", "expected an array of at least 1 item, received 0", "v")},
		{"maxItems", reflect.TypeFor[struct {
			V []int `json:"v" maxItems:"2"`
		}](), `{"type":"array","items":{"type":"integer"},"maxItems":2}`, `{"v":[1,2]}`, `{"v":[1,2,3]}`,
			issue("maxItems", "expected an array of at most 2 items, received 3", "v")},
		{"uniqueItems", reflect.TypeFor[struct {
			V []string `json:"v" uniqueItems:"true"`
		}](), `{"type":"array","items":{"type":"string"},"uniqueItems":true}`, `{"v":["a","b"]}`, `{"v":["a","a"]}`,
			issue("uniqueItems", "expected unique items, items 0 and 1 are equal", "v")},
		{"minProperties", reflect.TypeFor[struct {
			V map[string]int `json:"v" minProperties:"1"`
		}](), `{"type":"object","additionalProperties":{"type":"integer"},"minProperties":1}`, `{"v":{"a":1}}`, `{"v":{}}`,
			issue("minProperties", "expected an object with at least 1 property, received 0", "v")},
		{"maxProperties", reflect.TypeFor[struct {
			V map[string]int `json:"v" maxProperties:"1"`
		}](), `{"type":"object","additionalProperties":{"type":"integer"},"maxProperties":1}`, `{"v":{"a":1}}`, `{"v":{"a":1,"b":2}}`,
			issue("maxProperties", "expected an object with at most 1 property, received 2", "v")},
		{"string keyword on a []string goes on its items", reflect.TypeFor[struct {
			V []string `json:"v" minLength:"1" maxItems:"2"`
		}](), `{"type":"array","items":{"type":"string","minLength":1},"maxItems":2}`, `{"v":["a"]}`, `{"v":["a",""]}`,
			issue("minLength", "expected a string of at least 1 character, received 0", "v", 1)},
		{"number keyword on a map goes on its values", reflect.TypeFor[struct {
			V map[string]int `json:"v" minimum:"0"`
		}](), `{"type":"object","additionalProperties":{"type":"integer","minimum":0}}`, `{"v":{"a":0}}`, `{"v":{"a":-1}}`,
			issue("minimum", "expected a number >= 0, received -1", "v", "a")},
		{"keyword on a pointer field", reflect.TypeFor[struct {
			V *string `json:"v,omitempty" format:"uuid"`
		}](), `{"type":"string","format":"uuid"}`, `{}`, `{"v":"x"}`,
			issue("format", `expected a string in the format "uuid"`, "v")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Input(tt.typ)
			if err != nil {
				t.Fatal(err)
			}
			if got := marshal(t, s.Properties["v"]); !reflect.DeepEqual(decode(t, got), decode(t, tt.published)) {
				t.Errorf("published %s, want %s", got, tt.published)
			}
			v := mustValidator(t, s)
			if _, res, err := v.CheckJSON([]byte(tt.pass)); err != nil || !res.Valid() {
				t.Errorf("%s: err %v, issues %s", tt.pass, err, marshal(t, res.Issues))
			}
			_, res, err := v.CheckJSON([]byte(tt.fail))
			if err != nil {
				t.Fatal(err)
			}
			if want := []Issue{tt.want}; !reflect.DeepEqual(res.Issues, want) {
				t.Errorf("%s: issues %s, want %s", tt.fail, marshal(t, res.Issues), marshal(t, want))
			}
		})
	}
}

// Tags apply at any depth: nested structs, slices of structs, map values,
// recursive types; a nested pattern is no longer dropped.
func TestKeywordTagsNested(t *testing.T) {
	type leaf struct {
		Code string `json:"code" pattern:"^[A-Z]{3}$" maxLength:"3"`
		N    int    `json:"n,omitempty" minimum:"1"`
	}
	type node struct {
		Name     string  `json:"name" minLength:"1"`
		Children []*node `json:"children,omitempty" maxItems:"2"`
	}
	type in struct {
		One   leaf            `json:"one"`
		Many  []leaf          `json:"many" minItems:"1"`
		ByKey map[string]leaf `json:"byKey,omitempty" maxProperties:"2"`
		Ptr   *leaf           `json:"ptr,omitempty"`
		Tree  node            `json:"tree"`
	}
	s, err := Input(reflect.TypeFor[in]())
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Properties["one"].Properties["code"].Pattern; p != "^[A-Z]{3}$" {
		t.Errorf("nested pattern %q", p)
	}
	if p := s.Properties["many"].Items.Properties["code"].Pattern; p != "^[A-Z]{3}$" {
		t.Errorf("pattern in a slice of structs %q", p)
	}
	if p := s.Properties["byKey"].AdditionalProperties.Properties["n"].Minimum; p == nil || *p != 1 {
		t.Errorf("minimum in map values %v", p)
	}
	if d := s.Defs["node"]; d == nil || d.Properties["name"].MinLength == nil || d.Properties["children"].MaxItems == nil {
		t.Errorf("recursive definition: %s", marshal(t, s.Defs))
	}
	v := mustValidator(t, s)
	valid := `{"one":{"code":"ABC"},"many":[{"code":"DEF","n":2}],"byKey":{"a":{"code":"GHI"}},"ptr":{"code":"JKL"},
		"tree":{"name":"r","children":[{"name":"c"}]}}`
	if _, res, err := v.CheckJSON([]byte(valid)); err != nil || !res.Valid() {
		t.Fatalf("valid: err %v, issues %s", err, marshal(t, res.Issues))
	}
	invalid := `{"one":{"code":"abc"},"many":[{"code":"ABCD","n":0}],"byKey":{"a":{"code":"X"},"b":{"code":"ABC"},"c":{"code":"ABC"}},
		"ptr":{"code":"1"},"tree":{"name":"r","children":[{"name":""},{"name":"b","children":[{"name":"x"},{"name":"y"},{"name":"z"}]}]}}`
	_, res, err := v.CheckJSON([]byte(invalid))
	if err != nil {
		t.Fatal(err)
	}
	pat := `expected a string matching the pattern "^[A-Z]{3}$"`
	want := []Issue{
		issue("maxProperties", "expected an object with at most 2 properties, received 3", "byKey"),
		issue("pattern", pat, "byKey", "a", "code"),
		// A string too long is not matched against its pattern too.
		issue("maxLength", "expected a string of at most 3 characters, received 4", "many", 0, "code"),
		issue("minimum", "expected a number >= 1, received 0", "many", 0, "n"),
		issue("pattern", pat, "one", "code"),
		issue("pattern", pat, "ptr", "code"),
		issue("minLength", "expected a string of at least 1 character, received 0", "tree", "children", 0, "name"),
		issue("maxItems", "expected an array of at most 2 items, received 3", "tree", "children", 1, "children"),
	}
	if !reflect.DeepEqual(res.Issues, want) {
		t.Errorf("issues\n%s\nwant\n%s", marshal(t, res.Issues), marshal(t, want))
	}
}

// A keyword tag that does not parse, or does not fit its field, is refused
// with the type, the field and the tag named.
func TestKeywordTagErrors(t *testing.T) {
	type inner struct {
		N int `json:"n" minLength:"1"`
	}
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[struct {
			N int `json:"n" minLength:"1"`
		}](), ".N: a minLength tag needs a string field (or a slice or map of strings), not int"},
		{reflect.TypeFor[struct {
			S string `json:"s" minimum:"1"`
		}](), ".S: a minimum tag needs a number field (or a slice or map of numbers), not string"},
		{reflect.TypeFor[struct {
			S string `json:"s" minItems:"1"`
		}](), ".S: a minItems tag needs a slice or array field, not string"},
		{reflect.TypeFor[struct {
			S []string `json:"s" maxProperties:"1"`
		}](), ".S: a maxProperties tag needs a map or struct field, not []string"},
		{reflect.TypeFor[struct {
			S string `json:"s" minLength:"-1"`
		}](), `.S: minLength "-1": want a non-negative integer`},
		{reflect.TypeFor[struct {
			S string `json:"s" maxLength:"ten"`
		}](), `.S: maxLength "ten": want a non-negative integer`},
		{reflect.TypeFor[struct {
			F float64 `json:"f" maximum:"1e999"`
		}](), `.F: maximum "1e999": want a finite number`},
		{reflect.TypeFor[struct {
			F float64 `json:"f" multipleOf:"0"`
		}](), `.F: multipleOf "0": want a number greater than 0`},
		{reflect.TypeFor[struct {
			L []int `json:"l" uniqueItems:"yes"`
		}](), `.L: uniqueItems "yes": want true or false`},
		{reflect.TypeFor[struct {
			S string `json:"s" format:"emial"`
		}](), `.S: format "emial": unknown format; use one of date, date-time, email, uri, uuid`},
		{reflect.TypeFor[struct {
			S string `json:"s" pattern:"("`
		}](), `.S: pattern "(": error parsing regexp`},
		{reflect.TypeFor[struct {
			S string `json:"s" minLength:"3" maxLength:"2"`
		}](), `.S: minLength 3 is above maxLength 2: no value fits`},
		{reflect.TypeFor[struct {
			I inner `json:"i"`
		}](), "field schema.inner.N: a minLength tag needs a string field"},
		{reflect.TypeFor[struct {
			L []inner `json:"l"`
		}](), "field schema.inner.N: a minLength tag"},
	} {
		_, err := Input(tc.typ)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Input(%v): err = %v, want %q", tc.typ, err, tc.want)
		}
	}
}

// The format checks, beyond one value each.
func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		format, value string
		ok            bool
	}{
		{"email", "a.b+c@example.co", true},
		{"email", "a@b", true},
		{"email", "no-at-sign", false},
		{"email", "<a@example.com>", false},
		{"email", " a@example.com", false},
		{"uri", "urn:isbn:0451450523", true},
		{"uri", "mailto:a@example.com", true},
		{"uri", "example.com", false},
		{"uri", "", false},
		{"date", "2024-02-29", true},
		{"date", "2023-02-29", false},
		{"date", "2024-2-29", false},
		{"date-time", "2024-02-29T23:59:59Z", true},
		{"date-time", "2024-02-29T23:59:59", false},
		{"uuid", "00000000-0000-0000-0000-000000000000", true},
		{"uuid", "0000000-00000-0000-0000-000000000000", false},
		{"uuid", "g0000000-0000-0000-0000-000000000000", false},
	} {
		if got := formats[tc.format](tc.value); got != tc.ok {
			t.Errorf("%s %q: %v, want %v", tc.format, tc.value, got, tc.ok)
		}
	}
}

// The example of Tool's documentation: keyword tags next to a default.
func TestKeywordTagsDocExample(t *testing.T) {
	type searchInput struct {
		Query string   `json:"query" minLength:"1" maxLength:"200"`
		Limit int      `json:"limit,omitempty" minimum:"1" maximum:"100" default:"10"`
		Tags  []string `json:"tags,omitempty" maxItems:"5" pattern:"^[a-z-]+$"`
	}
	v := mustValidator(t, mustInput[searchInput](t))
	got, issues, err := v.ValidateJSON([]byte(`{"query":"q"}`))
	if err != nil || issues != nil {
		t.Fatalf("err %v, issues %s", err, marshal(t, issues))
	}
	if string(got) != `{"limit":10,"query":"q"}` {
		t.Errorf("default not filled in: %s", got)
	}
	_, issues, _ = v.ValidateJSON([]byte(`{"query":"","limit":0,"tags":["ok","No"]}`))
	want := []Issue{
		issue("minimum", "expected a number >= 1, received 0", "limit"),
		issue("minLength", "expected a string of at least 1 character, received 0", "query"),
		issue("pattern", `expected a string matching the pattern "^[a-z-]+$"`, "tags", 1),
	}
	if !reflect.DeepEqual(issues, want) {
		t.Errorf("issues %s, want %s", marshal(t, issues), marshal(t, want))
	}
}

// taggedInput constrains every kind of value with keyword tags.
type taggedInput struct {
	Query string   `json:"query" minLength:"1" maxLength:"200" pattern:"^[a-z ]+$"`
	Limit int      `json:"limit" minimum:"1" maximum:"100" multipleOf:"5"`
	IDs   []string `json:"ids" maxItems:"10" uniqueItems:"true" format:"uuid"`
	Day   string   `json:"day" format:"date"`
	Email string   `json:"email" format:"email"`
}

const taggedValid = `{"query":"asthma","limit":10,"ids":["123e4567-e89b-12d3-a456-426614174000"],"day":"2026-12-02","email":"ada@example.com"}`

// The keywords are compiled with the schema: a valid value costs no
// allocation.
func TestKeywordTagsAllocations(t *testing.T) {
	v := mustValidator(t, mustInput[taggedInput](t))
	inst := decode(t, taggedValid)
	if r := v.Check(inst); !r.Valid() {
		t.Fatalf("issues %s", marshal(t, r.Issues))
	}
	if n := testing.AllocsPerRun(100, func() { v.Check(inst) }); n != 0 {
		t.Errorf("%v allocations per valid check", n)
	}
}

// Validation of a value that every keyword tag constrains.
func BenchmarkKeywordTagsValid(b *testing.B) {
	v := mustValidator(b, mustInput[taggedInput](b))
	inst := decode(b, taggedValid)
	b.ReportAllocs()
	for b.Loop() {
		if !v.Check(inst).Valid() {
			b.Fatal("invalid")
		}
	}
}

// isEmail accepts nothing that mail.ParseAddress refuses as an address
// alone (it refuses more: a domain of atext such as "a=b", a display
// name), and its address literals are the suite's (suite_test.go).
func TestEmailAgreesWithParseAddress(t *testing.T) {
	alphabet := []string{"a", "Z", "0", ".", "@", "-", "+", "_", "=", "~", "é", " ", "<", ">", "\"", "\\", "(", ")", ","}
	r := rand.New(rand.NewPCG(3, 5))
	accepted := 0
	for range 200000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := b.String()
		if !isEmail(s) {
			continue
		}
		accepted++
		if a, err := mail.ParseAddress(s); err != nil || a.Name != "" {
			t.Fatalf("isEmail(%q) = true, ParseAddress: %v, %v", s, a, err)
		}
	}
	if accepted < 100 {
		t.Fatalf("only %d strings accepted: the test says nothing", accepted)
	}
}
