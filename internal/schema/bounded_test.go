package schema

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// Types whose inferred schemas exercise every loop the bounded walk takes
// over: items, properties, additionalProperties as a schema (maps), $ref
// recursion and anyOf for nullable pointers.
type (
	grid struct {
		Rows  [][]string         `json:"rows"`
		Tags  map[string][]int   `json:"tags,omitempty"`
		Named map[string]article `json:"named,omitempty"`
		Pair  [2]int             `json:"pair,omitempty"`
	}
	tree struct {
		Value int   `json:"value"`
		Left  *tree `json:"left,omitempty"`
		Right *tree `json:"right,omitempty"`
	}
)

// fullIssues is the full list, of a walk that keeps every issue and never
// stops: the reference the bounded walk is checked against.
func fullIssues(t testing.TB, v *Validator, inst any) []Issue {
	t.Helper()
	return v.issuesOf(v.root, inst)
}

// checkAgainstFull checks the bounded result of inst against the full
// list: the same validity; below the cap, the same list; above it, a prefix
// of the full list (exactly the first MaxIssues when exact is set, as it is
// for inferred schemas) and a count that adds up.
func checkAgainstFull(t *testing.T, v *Validator, inst any, exact bool) (stopped bool) {
	t.Helper()
	full := fullIssues(t, v, inst)
	res := v.Check(inst)
	if (full == nil) != res.Valid() {
		t.Fatalf("valid: full %v, bounded %v\ninstance %s\nbounded %s", full == nil, res.Valid(), marshal(t, inst), marshal(t, res))
	}
	total := len(res.Issues) + res.Omitted
	switch {
	case !res.Stopped:
		want := full[:min(len(full), MaxIssues)]
		if !reflect.DeepEqual(res.Issues, want) || total != len(full) {
			t.Fatalf("not stopped: %d issues + %d omitted, want the first of %d\ninstance %s\ngot  %s\nwant %s",
				len(res.Issues), res.Omitted, len(full), marshal(t, inst), marshal(t, res.Issues), marshal(t, want))
		}
	case exact:
		if len(full) < MaxIssues || !reflect.DeepEqual(res.Issues, full[:MaxIssues]) || total > len(full) {
			t.Fatalf("stopped: %d issues + %d omitted of %d, not the first of the full list\ninstance %s\ngot  %s\nwant %s",
				len(res.Issues), res.Omitted, len(full), marshal(t, inst), marshal(t, res.Issues), marshal(t, full[:min(len(full), MaxIssues)]))
		}
	default:
		for _, is := range res.Issues {
			if !slices.ContainsFunc(full, func(f Issue) bool { return compareIssues(f, is) == 0 }) {
				t.Fatalf("stopped: issue %s is not in the full list", marshal(t, is))
			}
		}
		if !slices.IsSortedFunc(res.Issues, compareIssues) || total > len(full) {
			t.Fatalf("stopped: unsorted, or more issues (%d) than the full list (%d)", total, len(full))
		}
	}
	return res.Stopped
}

// TestBoundedMatchesFull validates random values, most of them a little
// wrong and some with long arrays and maps, with the bounded walk and the
// original validator.
func TestBoundedMatchesFull(t *testing.T) {
	schemas := []struct {
		name   string
		schema *jsonschema.Schema
		exact  bool
	}{
		{"searchInput", mustInput[searchInput](t), true},
		{"searchOutput", mustOutput[searchOutput](t), true},
		{"node", mustInput[node](t), true},
		{"dept", mustInput[dept](t), true},
		{"grid", mustInput[grid](t), true},
		{"tree", mustInput[tree](t), true},
		{"hand-written", schemaFromJSON(t, `{
			"type": "object",
			"$defs": {"address": {"$anchor": "addr", "type": "object",
				"properties": {"street": {"type": "string"}, "city": {"type": "string"}}, "required": ["city"]}},
			"properties": {
				"home": {"$ref": "#/$defs/address"},
				"work": {"$ref": "#addr"},
				"kind": {"enum": ["person", "company"]},
				"list": {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string", "minLength": 2}, "maxItems": 150},
				"either": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "array", "items": {"type": "integer"}}]},
				"nested": {"type": "array", "items": {"anyOf": [{"type": "null"}, {"type": "array", "items": {"type": "boolean"}}]}},
				"never": {"not": {"type": "array", "items": {"type": "string"}}}
			},
			"allOf": [{"required": ["kind"]}],
			"if": {"properties": {"kind": {"const": "company"}}, "required": ["kind"]},
			"then": {"properties": {"list": {"items": {"maxLength": 3}}}},
			"additionalProperties": false
		}`), false},
		{"unevaluated", Strict(schemaFromJSON(t, `{"type": "object",
			"anyOf": [{"properties": {"a": {"type": "array", "items": {"type": "string"}}}},
			          {"properties": {"b": {"type": "array", "items": {"type": "integer"}}}}]}`)), false},
	}
	for _, sc := range schemas {
		t.Run(sc.name, func(t *testing.T) {
			v := mustValidator(t, sc.schema)
			if !v.Bounded() {
				t.Fatal("not bounded")
			}
			g := gen{r: rand.New(rand.NewPCG(1, uint64(len(sc.name)))), root: sc.schema}
			stops := 0
			for i := range 600 {
				g.bad = []float64{0, 0.02, 0.1, 0.4}[i%4]
				g.left = 2000
				inst := decode(t, marshal(t, g.value(sc.schema, 0)))
				if checkAgainstFull(t, v, inst, sc.exact) {
					stops++
				}
			}
			t.Logf("%d of 600 stopped early", stops)
		})
	}
}

// gen makes random values for a schema, each part replaced by a random
// value with probability bad.
type gen struct {
	r    *rand.Rand
	root *jsonschema.Schema
	bad  float64
	left int // values still to make; past it, arrays and maps are short
}

func (g *gen) value(s *jsonschema.Schema, depth int) any {
	g.left--
	if s == nil || g.r.Float64() < g.bad || depth > 8 {
		return g.random(depth)
	}
	if s.Ref != "" {
		if name, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok {
			return g.value(g.root.Defs[name], depth)
		}
		if s.Ref == "#addr" {
			return g.value(g.root.Defs["address"], depth)
		}
		return g.random(depth)
	}
	if alts := append(append([]*jsonschema.Schema{}, s.AnyOf...), s.OneOf...); len(alts) > 0 {
		return g.value(alts[g.r.IntN(len(alts))], depth)
	}
	if len(s.Enum) > 0 {
		return s.Enum[g.r.IntN(len(s.Enum))]
	}
	typ := s.Type
	if len(s.Types) > 0 {
		typ = s.Types[g.r.IntN(len(s.Types))]
	}
	switch typ {
	case "object":
		m := map[string]any{}
		for name, p := range s.Properties {
			if g.r.IntN(5) > 0 {
				m[name] = g.value(p, depth+1)
			}
		}
		if ap := s.AdditionalProperties; ap != nil && !isFalse(ap) {
			for range g.length() {
				m[g.key()] = g.value(ap, depth+1)
			}
		}
		if g.r.Float64() < g.bad {
			m[g.key()] = g.random(depth + 1)
		}
		return m
	case "array":
		n := g.length()
		a := make([]any, n)
		for i := range a {
			if i < len(s.PrefixItems) {
				a[i] = g.value(s.PrefixItems[i], depth+1)
			} else {
				a[i] = g.value(s.Items, depth+1)
			}
		}
		return a
	case "string":
		return g.key()
	case "integer":
		return g.r.IntN(300) - 10
	case "number":
		return g.r.Float64() * 10
	case "boolean":
		return g.r.IntN(2) == 0
	case "null":
		return nil
	}
	return g.random(depth)
}

// length is mostly short, sometimes long enough to pass the cap.
func (g *gen) length() int {
	if g.left < 0 {
		return g.r.IntN(2)
	}
	if g.r.IntN(8) == 0 {
		return 40 + g.r.IntN(200)
	}
	return g.r.IntN(4)
}

func (g *gen) key() string {
	return []string{"a", "b", "name", "zz", "ab", "é", "x-1", "year", ""}[g.r.IntN(9)] + fmt.Sprint(g.r.IntN(3))
}

func (g *gen) random(depth int) any {
	g.left--
	k := g.r.IntN(7)
	if depth > 8 || g.left < 0 {
		k %= 5
	}
	switch k {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return g.r.IntN(100)
	case 3:
		return 0.5
	case 4:
		return g.key()
	case 5:
		a := make([]any, g.length())
		for i := range a {
			a[i] = g.random(depth + 1)
		}
		return a
	}
	m := map[string]any{}
	for range g.r.IntN(3) {
		m[g.key()] = g.random(depth + 1)
	}
	return m
}

// mistypedPMIDs is {"query":"q","pmids":[0,1,…]}: n numbers where the
// schema wants strings, the shape of the request in issue 6.
func mistypedPMIDs(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"query":"q","pmids":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(fmt.Sprint(i))
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// allocated is the number of bytes f allocates: the least of five runs,
// since the count is the whole process's.
func allocated(f func()) uint64 {
	least := uint64(1<<64 - 1)
	for range 5 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

func TestMillionMistypedElements(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 7 MB")
	}
	v := mustValidator(t, mustInput[searchInput](t))
	data := mistypedPMIDs(1_000_000)
	_, res, err := v.CheckJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Issues) != MaxIssues || !res.Stopped {
		t.Fatalf("%d issues, stopped %v; want %d, stopped", len(res.Issues), res.Stopped, MaxIssues)
	}
	for i, is := range res.Issues {
		want := Issue{Path: []any{"pmids", i}, Message: "expected string, received number", Keyword: "type"}
		if !reflect.DeepEqual(is, want) {
			t.Fatalf("issue %d = %s, want %s", i, marshal(t, is), marshal(t, want))
		}
	}
	want := "100 or more issues: at pmids[0]: expected string, received number"
	for i := 1; i < 10; i++ {
		want += fmt.Sprintf("; at pmids[%d]: expected string, received number", i)
	}
	want += "; and 90 or more"
	if got := res.Summary(); got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	// What dispatch sends: the issues and the count of the rest.
	data2 := marshal(t, map[string]any{"issues": res.Issues, "issuesOmitted": res.Omitted})
	if len(data2) > 16<<10 {
		t.Errorf("data is %d bytes", len(data2))
	}

	// The validation itself, on the decoded value, allocates what a
	// hundred issues need, not a million.
	inst := decode(t, string(data))
	if n := allocated(func() { v.Check(inst) }); n > 1<<20 {
		t.Errorf("Check allocated %d bytes", n)
	}
}

// The cost beyond the cap does not depend on the number of issues.
func TestCheckAllocationFlat(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	small := decode(t, string(mistypedPMIDs(200)))
	large := decode(t, string(mistypedPMIDs(100_000)))
	v.Check(small) // warm up
	a, b := allocated(func() { v.Check(small) }), allocated(func() { v.Check(large) })
	if b > a+a/4 {
		t.Errorf("Check allocated %d bytes for 200 elements, %d for 100,000", a, b)
	}
}

// Issues at every level of nesting, with no long array: the walk still
// stops, and its first issues are exactly the first of the full list.
func TestBoundedTree(t *testing.T) {
	v := mustValidator(t, mustInput[tree](t))
	var build func(d int) any
	build = func(d int) any {
		n := map[string]any{"value": "wrong"}
		if d > 0 {
			n["left"], n["right"] = build(d-1), build(d-1)
		}
		return n
	}
	inst := decode(t, marshal(t, build(13))) // 16,383 nodes
	if !checkAgainstFull(t, v, inst, true) {
		t.Fatal("did not stop")
	}
	if n := allocated(func() { v.Check(inst) }); n > 4<<20 {
		t.Errorf("Check allocated %d bytes", n)
	}
	nested := mustValidator(t, mustInput[grid](t))
	rows := make([]any, 300)
	for i := range rows {
		rows[i] = []any{1, 2, 3, 4, 5}
	}
	checkAgainstFull(t, nested, map[string]any{"rows": rows}, true)
}

// A map with several long wrong arrays stops at the same place every
// time, whatever the order of Go's map iteration.
func TestBoundedDeterministic(t *testing.T) {
	v := mustValidator(t, mustInput[grid](t))
	tags := map[string]any{}
	for _, k := range []string{"k", "c", "x", "a", "m", "b"} {
		tags[k] = make([]any, 60)
		for i := range 60 {
			tags[k].([]any)[i] = "s"
		}
	}
	inst := map[string]any{"rows": []any{}, "tags": tags}
	first := marshal(t, v.Check(inst))
	for range 50 {
		if got := marshal(t, v.Check(inst)); got != first {
			t.Fatalf("result changed:\n%s\n%s", first, got)
		}
	}
	checkAgainstFull(t, v, inst, true)
}

// A schema the bounded walk does not handle is validated in full, and its
// list is capped all the same.
func TestUnboundedSchemaCapped(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{"type":"array","items":{"type":"string"},"contains":{"type":"string"}}`))
	if v.Bounded() {
		t.Fatal("contains is not bounded, yet the validator says it is")
	}
	inst := make([]any, 1000)
	for i := range inst {
		inst[i] = i
	}
	res := v.Check(inst)
	// 1,000 type errors and the failed contains.
	if len(res.Issues) != MaxIssues || res.Omitted != 901 || res.Stopped {
		t.Fatalf("%d issues, %d omitted, stopped %v", len(res.Issues), res.Omitted, res.Stopped)
	}
}

func TestBoundedSchemaChoice(t *testing.T) {
	tests := []struct {
		schema  string
		bounded bool
	}{
		{`{"type":"array","items":{"type":"string"}}`, true},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, true},
		{`{"type":"object","unevaluatedProperties":false,"allOf":[{"properties":{"a":{}}}]}`, true},
		{`{"type":"string"}`, true},                                // nothing to loop over
		{`{"type":"object","patternProperties":{"^a":{}}}`, false}, // loops the walk does not order
		{`{"type":"object","unevaluatedProperties":{"type":"string"},"properties":{"a":{}}}`, false},
		// A reference into items: the walk follows it like any other.
		{`{"$defs":{"a":{"type":"array","items":{}}},"$ref":"#/$defs/a/items"}`, true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","items":{"type":"string"}}`, false},
		{`{"type":"object","properties":{"a":{}},"x-mcpcore-items":1}`, true}, // an unknown keyword
		// Recursive unions are memoised.
		{exprSchema, true},
		// The threads a pattern may keep live are its cost per character.
		{`{"type":"string","pattern":"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"}`, true},
		{`{"type":"string","maxLength":64,"pattern":".{1,1000}z"}`, false},
		{`{"type":"object","additionalProperties":{"type":"string","pattern":"[a-z]{100}x"}}`, false},
		{`{"type":"object","additionalProperties":{"type":"string","pattern":"^[a-z]{1,64}$"}}`, true},
	}
	for _, tt := range tests {
		v := mustValidator(t, schemaFromJSON(t, tt.schema))
		if got := v.Bounded(); got != tt.bounded || (v.Unbounded() == "") != tt.bounded {
			t.Errorf("%s: bounded %v (%q), want %v", tt.schema, got, v.Unbounded(), tt.bounded)
		}
		if !tt.bounded && !strings.HasPrefix(v.Unbounded(), "at #") {
			t.Errorf("%s: %q does not say where", tt.schema, v.Unbounded())
		}
	}
}

// Concurrent validations each count their own issues: one that stops early
// does not stop its neighbours.
func TestBoundedConcurrent(t *testing.T) {
	v := mustValidator(t, mustInput[searchInput](t))
	large := decode(t, string(mistypedPMIDs(300)))
	small := decode(t, `{"query":"q","pmids":[1,"2",3],"authors":[{"name":1}]}`)
	wantLarge, wantSmall := marshal(t, v.Check(large)), marshal(t, v.Check(small))
	done := make(chan string)
	for i := range 8 {
		go func() {
			for range 50 {
				inst, want := large, wantLarge
				if i%2 == 0 {
					inst, want = small, wantSmall
				}
				if got := marshal(t, v.Check(inst)); got != want {
					done <- got
					return
				}
			}
			done <- ""
		}()
	}
	for range 8 {
		if got := <-done; got != "" {
			t.Errorf("result changed under concurrency: %s", got)
		}
	}
}
