package mcpcore_test

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
)

// A resources/read of an 8 KiB URI whose variable takes thousands of
// values ("test://many/a,a,a,…", "test://path/a/a/a/…") costs about what
// one of a single 8 KiB value does: reading the variables is linear in the
// URI's length. (The template library's matcher copied every value found
// so far at each character: 0.3 to 1.2 s of CPU for one such read, against
// a few milliseconds.) CPU time is measured a few times and the least
// kept; the budget is generous.
func TestResourceReadOfManyValuesIsLinear(t *testing.T) {
	type listParams struct {
		IDs string `json:"ids"`
	}
	type pathParams struct {
		Segments string `json:"segments"`
	}
	list := mcpcore.Resource[listParams, string]{Name: "many", URITemplate: "test://many/{ids}", MIMEType: "text/plain",
		Handler: func(_ *mcpcore.Context, p listParams) (string, error) {
			return "ids " + p.IDs[:min(len(p.IDs), 8)], nil
		}}
	path := mcpcore.Resource[pathParams, string]{Name: "path", URITemplate: "test://path{/segments*}", MIMEType: "text/plain",
		Handler: func(_ *mcpcore.Context, p pathParams) (string, error) {
			return "segments " + p.Segments[:min(len(p.Segments), 8)], nil
		}}
	cs, _ := connect(t, list, path)
	fill := func(prefix, item string) string {
		uri := prefix + strings.Repeat(item, (mcpcore.MaxURIBytes-len(prefix))/len(item))
		return uri + strings.Repeat("a", mcpcore.MaxURIBytes-len(uri))
	}
	for _, tc := range []struct{ many, one, wantMany string }{
		// A list reads as an empty string, as it always has.
		{fill("test://many/a", ",a"), fill("test://many/", "a"), "ids "},
		{fill("test://path", "/a"), fill("test://path/", "a"), "segments "},
	} {
		read := func(uri, want string) time.Duration {
			least := time.Duration(1<<63 - 1)
			for range 3 {
				start := cpuTime()
				res, err := readResource(t, cs, uri)
				least = min(least, cpuTime()-start)
				if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != want {
					t.Fatalf("%.30q…: %v, %v, want %q", uri, res, err, want)
				}
			}
			return least
		}
		many, one := read(tc.many, tc.wantMany), read(tc.one, tc.wantMany+"aaaaaaaa")
		if ratio := float64(many) / float64(one); ratio > 10 {
			t.Errorf("%.30q…: %v of CPU, against %v for one value of the same length: %.0f times as much, want at most 10", tc.many, many, one, ratio)
		} else {
			t.Logf("%.30q…: %v of CPU, one value %v: ratio %.2f", tc.many, many, one, ratio)
		}
	}
}

// cpuTime is the CPU time the process has used: the work a test measures,
// whatever else the machine runs meanwhile.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
