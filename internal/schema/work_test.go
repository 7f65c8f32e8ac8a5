package schema

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The work of a validation grows no faster than its input, whatever the
// schema: each shape below once cost from seconds to hours for a request
// of at most 4 MiB. Each is measured against a plain input of the same
// size, by the walk's own count of work where the cost is the walk's, and
// by CPU time where it is inside a library call; both as a ratio, never as
// an absolute figure.

// workOf is the work CheckJSON does on data, and its result.
func workOf(t testing.TB, v *Validator, data []byte) (int, Result) {
	t.Helper()
	_, res, work, err := v.checkJSON(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	return work, res
}

// assertWorkRatio checks that bad costs at most limit times plain.
func assertWorkRatio(t *testing.T, v *Validator, bad, plain []byte, limit float64) Result {
	t.Helper()
	wb, res := workOf(t, v, bad)
	wp, _ := workOf(t, v, plain)
	ratio := float64(wb) / float64(max(wp, 1))
	t.Logf("work %d against %d for a plain input of %d bytes (bad %d bytes): ratio %.1f", wb, wp, len(plain), len(bad), ratio)
	if ratio > limit {
		t.Errorf("the input costs %.0f times the work of a plain one of its size (limit %.0f)", ratio, limit)
	}
	return res
}

// cpu is the CPU time of the process.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// assertCPURatio checks that CheckJSON costs at most limit times more CPU
// on bad than on plain: the least of three runs of each, so that a loaded
// machine does not make the test flaky (the bugs gave ratios of 200 and
// more).
func assertCPURatio(t *testing.T, v *Validator, bad, plain []byte, limit float64) {
	t.Helper()
	least := func(data []byte) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := cpu()
			if _, _, err := v.CheckJSON(data); err != nil {
				t.Fatal(err)
			}
			best = min(best, cpu()-start)
		}
		return max(best, time.Millisecond) // the clock's grain
	}
	cb, cp := least(bad), least(plain)
	ratio := float64(cb) / float64(cp)
	t.Logf("CPU %v against %v for a plain input of the same size: ratio %.1f", cb, cp, ratio)
	if ratio > limit {
		t.Errorf("the input costs %.0f times the CPU of a plain one of its size (limit %.0f)", ratio, limit)
	}
}

// pmidsSchema is the input of examples/articles' search_articles.
type pmidsSchema struct {
	Query string   `json:"query" minLength:"3" maxLength:"200"`
	PMIDs []string `json:"pmids,omitempty" maxItems:"10" uniqueItems:"true" pattern:"^[0-9]+$"`
}

// pmidsRequest is {"query":"sleep","pmids":[…]} with n numbers, each
// written by num(i).
func pmidsRequest(n int, num func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"query":"sleep","pmids":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(num(i))
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// Numbers that one float64 cannot tell apart (1e400, 2e400, … are all
// +Inf) once fell in one hash bucket of uniqueItems and were compared
// pairwise: 8,000 of them took 29 s. An array longer than maxItems is not
// searched for duplicates at all.
func TestWorkUniqueItemsHugeNumbers(t *testing.T) {
	bad := pmidsRequest(3000, func(i int) string { return fmt.Sprintf("%de400", i+1) })
	plain := pmidsRequest(3000, func(i int) string { // distinct, as long
		n := 1
		for range len(fmt.Sprintf("%de400", i+1)) - 1 {
			n *= 10
		}
		return fmt.Sprint(n + i)
	})
	if len(bad) != len(plain) {
		t.Fatalf("sizes %d and %d", len(bad), len(plain))
	}
	v := mustValidator(t, mustInput[pmidsSchema](t))
	res := assertWorkRatio(t, v, bad, plain, 4)
	if res.Issues[0].Keyword != "maxItems" || res.Issues[1].Keyword != "type" {
		t.Errorf("issues %s, want maxItems then the items' types", marshal(t, res.Issues[:2]))
	}
	for _, is := range res.Issues {
		if is.Keyword == "uniqueItems" {
			t.Errorf("an array over maxItems was searched for duplicates: %s", marshal(t, is))
		}
	}
	assertCPURatio(t, v, bad, plain, 10)

	// Without maxItems, the search is linear too, and still exact.
	unique := mustValidator(t, schemaFromJSON(t, `{"type":"object","properties":{"pmids":{"type":"array","uniqueItems":true}}}`))
	assertWorkRatio(t, unique, bad, plain, 4)
	assertCPURatio(t, unique, bad, plain, 10)
}

// uniqueItems in a recursive schema hashed the arrays below it again at
// every level: work the depth times the size.
func TestWorkNestedUniqueItems(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{"$defs":{"l":{"type":"array","uniqueItems":true,
		"items":{"anyOf":[{"type":"integer"},{"$ref":"#/$defs/l"}]}}},"$ref":"#/$defs/l"}`))
	leaf := make([]string, 20_000)
	for i := range leaf {
		leaf[i] = fmt.Sprint(i)
	}
	nest := func(depth int) []byte {
		s := "[" + strings.Join(leaf, ",") + "]"
		for range depth {
			s = "[" + s + ",1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]"
		}
		return []byte(s)
	}
	// The plain input: one level over the same leaf, 15 % shorter.
	wb, res := workOf(t, v, nest(300))
	wp, _ := workOf(t, v, nest(1))
	if !res.Valid() {
		t.Fatalf("%s", marshal(t, res))
	}
	t.Logf("work %d for 300 levels, %d for one", wb, wp)
	if wb > 3*wp {
		t.Errorf("work %d for 300 levels over the same leaf, against %d for one", wb, wp)
	}
}

// Equal numbers are found equal whatever their writing, and unequal ones
// unequal however close, in short arrays (compared pairwise) and long ones
// (hashed).
func TestUniqueItemsExactNumbers(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{"type":"array","uniqueItems":true}`))
	for _, tt := range []struct {
		items string
		dup   bool
	}{
		{`1, 1.0`, true},
		{`1, 1e0`, true},
		{`100, 1e2`, true},
		{`0.1, 1e-1, 0.10`, true},
		{`-0, 0`, true},
		{`1e400, 10e399`, true},
		{`1e400, 2e400`, false},
		{`-1e400, 1e400`, false},
		{`9007199254740993, 9007199254740992`, false},
		{`1e-400, 2e-400`, false},
		{`[1e400], [1e400]`, true},
		{`{"a": 1e400}, {"a": 2e400}`, false},
	} {
		for _, pad := range []int{0, 30} { // pairwise, then hashed
			var filler strings.Builder
			for i := range pad {
				fmt.Fprintf(&filler, `"s%d",`, i)
			}
			data := "[" + filler.String() + tt.items + "]"
			inst, err := decodeJSON([]byte(data))
			if err != nil {
				t.Fatal(err)
			}
			if got := !v.Check(inst).Valid(); got != tt.dup {
				t.Errorf("%s (%d before): duplicate %v, want %v", tt.items, pad, got, tt.dup)
			}
		}
	}
}

// exprSchema is an expression tree: {op: "and"|"or", args: [expr]} or a
// leaf {op: "leaf", value: string}, a recursive anyOf.
const exprSchema = `{"type":"object","$defs":{"expr":{"anyOf":[
	{"type":"object","properties":{"op":{"const":"and"},"args":{"type":"array","items":{"$ref":"#/$defs/expr"}}},"required":["op","args"],"additionalProperties":false},
	{"type":"object","properties":{"op":{"const":"or"},"args":{"type":"array","items":{"$ref":"#/$defs/expr"}}},"required":["op","args"],"additionalProperties":false},
	{"type":"object","properties":{"op":{"const":"leaf"},"value":{"type":"string"}},"required":["op","value"],"additionalProperties":false}
]}},"properties":{"expr":{"$ref":"#/$defs/expr"}},"required":["expr"]}`

// exprChain is an expression depth levels deep, each level op, over one
// leaf whose value is leaf (JSON).
func exprChain(depth int, op, leaf string) []byte {
	s := `{"op":"leaf","value":` + leaf + `}`
	for range depth {
		s = `{"op":"` + op + `","args":[` + s + `]}`
	}
	return []byte(`{"expr":` + s + `}`)
}

// A recursive anyOf tried branch by branch doubled its work at each level:
// 20 levels with an invalid leaf took 29 s, a valid 22-level input 5 s.
// Valid or not, an "or" chain (the second branch) now costs about what an
// "and" chain (the first) does, and an invalid one names its leaf.
func TestWorkRecursiveUnion(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, exprSchema))
	if !v.Bounded() {
		t.Fatalf("not bounded: %s", v.Unbounded())
	}
	for _, depth := range []int{22, 200} {
		plain := exprChain(depth, "and", `"xy"`)
		res := assertWorkRatio(t, v, exprChain(depth, "or", `"xy"`), plain, 4)
		if !res.Valid() {
			t.Fatalf("%d levels: %s", depth, marshal(t, res))
		}
		res = assertWorkRatio(t, v, exprChain(depth, "or", `12`), plain, 10)
		path := []any{"expr"}
		for range depth {
			path = append(path, "args", 0)
		}
		want := []Issue{issue("type", `variant "leaf": expected string, received number`, append(path, "value")...)}
		if depth <= maxPathSegments/2-2 && marshal(t, res.Issues) != marshal(t, want) {
			t.Errorf("%d levels: issues %s, want %s", depth, marshal(t, res.Issues), marshal(t, want))
		}
	}
}

// An allOf that applies one schema twice, recursively, doubled the walk
// at every level, valid input or not, without any union.
func TestWorkRepeatedAllOf(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{"$defs":{
		"t":{"allOf":[{"$ref":"#/$defs/u"},{"$ref":"#/$defs/u"}]},
		"u":{"type":"object","properties":{"x":{"$ref":"#/$defs/t"},"n":{"type":"integer"}}}},
		"$ref":"#/$defs/t"}`))
	// The plain measure: the same input against the schema that applies
	// u once.
	once := mustValidator(t, schemaFromJSON(t, `{"$defs":{
		"u":{"type":"object","properties":{"x":{"$ref":"#/$defs/u"},"n":{"type":"integer"}}}},
		"$ref":"#/$defs/u"}`))
	chain := func(depth int, leaf string) []byte {
		s := `{"n":` + leaf + `}`
		for range depth {
			s = `{"x":` + s + `,"n":null}` // null: an optional property left out (dropNulls)
		}
		return []byte(s)
	}
	for _, depth := range []int{400} {
		for _, leaf := range []string{"1", `"s"`} {
			data := chain(depth, leaf)
			wb, res := workOf(t, v, data)
			wp, want := workOf(t, once, data)
			if wb > 10*wp {
				t.Errorf("%d levels, leaf %s: work %d, against %d applying u once", depth, leaf, wb, wp)
			}
			if marshal(t, res) != marshal(t, want) {
				t.Errorf("%d levels, leaf %s: %s, want %s", depth, leaf, marshal(t, res), marshal(t, want))
			}
		}
	}
	// Defaults and nulls follow allOf too, before validation.
	start := cpu()
	if _, _, err := v.CheckJSON(chain(400, "1")); err != nil {
		t.Fatal(err)
	}
	if took := cpu() - start; took > time.Second {
		t.Errorf("400 levels took %v", took)
	}
}

// A pattern is not matched against a string maxLength has refused: with
// `.{1,1000}z`, a 4 MiB string took 18 s, and the report walk matched it
// although maxLength had failed.
func TestWorkPatternAfterMaxLength(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	data := []byte(`{"s":"` + long + `"}`)
	plain := mustValidator(t, schemaFromJSON(t, `{"type":"object","properties":{"s":{"type":"string","maxLength":64,"pattern":"^[a-z]+$"}}}`))
	wp, _ := workOf(t, plain, data)
	for _, p := range []string{".{1,1000}z", "(a|aa){1,1000}b"} {
		v := mustValidator(t, schemaFromJSON(t, `{"type":"object","properties":{"s":{"type":"string","maxLength":64,"format":"email","pattern":`+marshal(t, p)+`}}}`))
		wb, res := workOf(t, v, data)
		if wb > 10*wp {
			t.Errorf("%s: work %d against %d with a cheap pattern", p, wb, wp)
		}
		if len(res.Issues) != 1 || res.Issues[0].Keyword != "maxLength" {
			t.Errorf("%s: issues %s, want maxLength alone", p, marshal(t, res.Issues))
		}
		if v.Bounded() {
			t.Errorf("%s: bounded, but matching it costs %d steps a character", p, v.root.props[0].node.pattern.steps)
		}
	}
}

// multipleOf on a number of a million digits parsed them with big.Int,
// quadratic: 4 million took 21 s. Its verdicts stay exact.
func TestWorkMultipleOfLongNumber(t *testing.T) {
	digits := "1" + strings.Repeat("3", 1_000_000-1)
	data := []byte(`{"n":` + digits + `}`)
	v := mustValidator(t, schemaFromJSON(t, `{"type":"object","properties":{"n":{"multipleOf":7}}}`))
	plain := mustValidator(t, schemaFromJSON(t, `{"type":"object","properties":{"n":{"minimum":7}}}`))
	start := cpu()
	_, _, err := v.CheckJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("multipleOf on a million digits: %v", cpu()-start)
	least := func(v *Validator) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := cpu()
			v.CheckJSON(data)
			best = min(best, cpu()-start)
		}
		return max(best, time.Millisecond)
	}
	if cb, cp := least(v), least(plain); cb > 10*cp {
		t.Errorf("multipleOf costs %v against %v for minimum on the same number", cb, cp)
	}
}

func TestMultipleOfExact(t *testing.T) {
	for _, tt := range []struct {
		n, m string
		want bool
	}{
		{"7e400", "7", true},
		{"1e400", "7", false},
		{"1e400", "1e-5", true},
		{"1e-400", "1e-5", false},
		{"0.35", "0.05", true},
		{"0.3", "0.1", true},
		{"0.31", "0.1", false},
		{"123456789012345678901234567890", "10", true},
		{"123456789012345678901234567891", "3", false},
		{"123456789012345678901234567891", "123456789012345678901234567891", false}, // m is a float64: not exact
		{"4.5", "1.5", true},
		{"-4.5", "1.5", true},
		{"0", "0.3", true},
		{"1e1099511627776", "3", false},
		{"3e1099511627776", "3", true},
	} {
		v := mustValidator(t, schemaFromJSON(t, `{"multipleOf":`+tt.m+`}`))
		if got := v.Check(json.Number(tt.n)).Valid(); got != tt.want {
			t.Errorf("%s multipleOf %s = %v, want %v", tt.n, tt.m, got, tt.want)
		}
	}
}

// A validation stops once its context ends, within ctxEvery evaluations,
// and says so: a client that hung up no longer costs the server the rest.
func TestCheckJSONContextStops(t *testing.T) {
	v := mustValidator(t, schemaFromJSON(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","pattern":"^x$"}}}}`))
	data := []byte(`{"l":[` + strings.Repeat(`"x",`, 100_000) + `"x"]}`)
	full, _ := workOf(t, v, data)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, res, work, err := v.checkJSON(ctx, data)
	if !errors.Is(err, context.Canceled) || !res.Valid() {
		t.Fatalf("err %v, result %s; want the context's error alone", err, marshal(t, res))
	}
	if work > 10*ctxEvery || work*10 > full {
		t.Errorf("work %d after the context ended, of %d for the whole validation", work, full)
	}
	if _, _, err := v.CheckJSONContext(context.Background(), data); err != nil {
		t.Errorf("a live context: %v", err)
	}
}

// A pattern's cost per character is the threads its matcher may keep live
// at once, not its length: counted repetitions anchored with ^ keep one or
// two, and stay bounded; unanchored ones, or ones that reach an offset in
// many ways, start or keep a thread per count, and do not.
func TestPatternCostIsLiveThreads(t *testing.T) {
	for _, c := range []struct {
		pattern string
		bounded bool
	}{
		{`^[0-9]+$`, true},
		{`^[a-z0-9-]{1,63}$`, true},
		{`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, true},
		{`^[a-zA-Z0-9._%+-]{1,64}@[a-zA-Z0-9.-]{1,255}$`, true},
		{`^.{1,1000}z$`, true},
		{`[a-z]{1,64}`, true},
		{`.{1,1000}z`, false},
		{`[a-z]{100}x`, false},
		{`(a|aa){1,1000}b`, false},
		{`^(a|aa){1,1000}$`, false},
	} {
		p, err := compilePattern(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if bounded := p.costly() == ""; bounded != c.bounded {
			t.Errorf("%s: bounded %v (%d live threads), want %v", c.pattern, bounded, p.steps, c.bounded)
		}
	}
	// What the count says bounded is cheap on the matcher's input too: an
	// anchored repetition of a thousand against a 1 MiB string costs no
	// more than ^[a-z]+z$ does (its threads die after a thousand
	// characters), where the unanchored one's cost grows with the count
	// (18 s for 4 MiB).
	long := strings.Repeat("a", 1<<20)
	least := func(expr string) time.Duration {
		re := regexp.MustCompile(expr)
		best := time.Duration(math.MaxInt64)
		for range 3 {
			start := cpu()
			re.MatchString(long)
			best = min(best, cpu()-start)
		}
		return best
	}
	plain, anchored := least(`^[a-z]+z$`), least(`^.{1,1000}z$`)
	t.Logf("1 MiB: ^.{1,1000}z$ %v, ^[a-z]+z$ %v", anchored, plain)
	if anchored > 10*plain+10*time.Millisecond {
		t.Errorf("^.{1,1000}z$ took %v on 1 MiB, ^[a-z]+z$ %v: the live threads undercount its cost", anchored, plain)
	}
}
