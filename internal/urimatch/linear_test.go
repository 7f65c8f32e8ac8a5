package urimatch

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yosida95/uritemplate/v3"
)

// manyValued are templates whose variable takes a value per separator,
// each with a URI of MaxURIBytes (8 KiB) holding 1,300 to 4,000 values and
// one of the same length holding a single value.
var manyValued = []struct {
	template, prefix, item, onePrefix string
}{
	{"test://items/{ids}", "test://items/", "a,", "test://items/"},
	{"test://items{/segments*}", "test://items", "/a", "test://items/"},
	{"test://search{?q*}", "test://search?", "q=a&", "test://search?q="},
	{"test://keys{;ids}", "test://keys;ids=", "a,", "test://keys;ids="},
	{"test://tags{;tag*}", "test://tags", ";tag=a", "test://tags;tag="},
}

// uriOf is prefix followed by item repeated to 8 KiB, the last one cut
// to a valid end: items "a," become "a,a,…,a".
func uriOf(prefix, item string) string {
	const size = 8 << 10
	uri := prefix + strings.Repeat(item, (size-len(prefix))/len(item))
	uri = strings.TrimRight(uri, ",&")
	return uri + strings.Repeat("a", size-len(uri))
}

// TestWorkIsLinear: matching an 8 KiB URI of thousands of values takes as
// many steps as matching one of a single value: the work is the URI's
// length times the template's, whatever the values. (The library's
// matcher copied every capture so far at each step: quadratic.)
func TestWorkIsLinear(t *testing.T) {
	for _, tc := range manyValued {
		m, err := Compile(tc.template)
		if err != nil {
			t.Fatal(err)
		}
		many, plain := uriOf(tc.prefix, tc.item), uriOf(tc.onePrefix, "a")
		manyValues, manyWork := m.match(many)
		plainValues, plainWork := m.match(plain)
		key := uritemplate.MustNew(tc.template).Varnames()[0]
		if n := len(manyValues[key].List()); n < 1000 {
			t.Fatalf("%s: %d values in %.40q…, want over a thousand", tc.template, n, many)
		}
		if plainValues[key].String() == "" {
			t.Fatalf("%s: no single value in %.40q…", tc.template, plain)
		}
		if ratio := float64(manyWork) / float64(plainWork); ratio > 1.5 {
			t.Errorf("%s: %d steps for many values, %d for one: %.2f times as many, want at most 1.5", tc.template, manyWork, plainWork, ratio)
		}
	}
}

// TestTimeIsLinear: the same in CPU time, each measured a few times and
// the least kept, with a generous budget (linear work gives about 1; the
// library's matcher gave hundreds).
func TestTimeIsLinear(t *testing.T) {
	for _, tc := range manyValued {
		m, err := Compile(tc.template)
		if err != nil {
			t.Fatal(err)
		}
		many, plain := uriOf(tc.prefix, tc.item), uriOf(tc.onePrefix, "a")
		manyTime, plainTime := leastCPU(func() { m.Match(many) }), leastCPU(func() { m.Match(plain) })
		if ratio := float64(manyTime) / float64(plainTime); ratio > 5 {
			t.Errorf("%s: %v for many values, %v for one: %.1f times as long, want at most 5", tc.template, manyTime, plainTime, ratio)
		} else {
			t.Logf("%s: many values %v, one %v: ratio %.2f", tc.template, manyTime, plainTime, ratio)
		}
	}
}

// leastCPU is the least CPU time of a few runs of ten calls of f.
func leastCPU(f func()) time.Duration {
	least := time.Duration(1<<63 - 1)
	for range 5 {
		start := cpuTime()
		for range 10 {
			f()
		}
		least = min(least, cpuTime()-start)
	}
	return least
}

// cpuTime is the CPU time the process has used: the work a test measures,
// whatever else the machine runs meanwhile.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkMatch measures a match of an 8 KiB URI of about 4,000 values,
// and of one value, for each template of manyValued.
func BenchmarkMatch(b *testing.B) {
	for _, tc := range manyValued {
		m, err := Compile(tc.template)
		if err != nil {
			b.Fatal(err)
		}
		for _, uri := range []struct{ name, uri string }{{"many", uriOf(tc.prefix, tc.item)}, {"one", uriOf(tc.onePrefix, "a")}} {
			b.Run(tc.template+"/"+uri.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(uri.uri)))
				for b.Loop() {
					m.Match(uri.uri)
				}
			})
		}
	}
}
