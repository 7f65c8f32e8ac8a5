package mcpcore_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// noData is the failure of a PubMed-like fetch tool, raised with messages
// of the tool's own making.
var noData = mcpcore.Failure{
	Reason:   "no_data",
	Code:     mcperr.CodeNotFound,
	When:     "None of the requested items returned data.",
	Recovery: "Check the identifiers and call fetch again.",
}

// fetchTool fails with noData and the message its input names.
var fetchTool = mcpcore.Tool[caseInput, okOutput]{
	Name:   "fetch",
	Errors: []mcpcore.Failure{noData},
	Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
		return okOutput{}, ctx.Fail(noData, in.Case)
	},
}

// failOverStdio calls fetch once per message over a stdio session whose
// repeat window outlasts the test, ends the session, and returns the
// records logged of the failures: the counts still pending are written
// when the session ends.
func failOverStdio(t *testing.T, messages []string) []map[string]any {
	t.Helper()
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: time.Hour}, fetchTool)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-06-18")
	for i, m := range messages {
		args, _ := json.Marshal(map[string]string{"case": m})
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"fetch","arguments":%s}}`+"\n", i+1, args))
		if l := s.next(t); !strings.Contains(l, `"isError":true`) {
			t.Fatalf("call %d answered %s", i+1, l)
		}
	}
	s.in.Close()
	select {
	case err := <-s.ended:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return when stdin closed")
	}
	var out []map[string]any
	for _, r := range logs.Records(t) {
		if msg, _ := r["msg"].(string); r["operation"] == "tool:fetch" && !strings.HasPrefix(msg, "Finished ") {
			out = append(out, r)
		}
	}
	return out
}

// The durations of summaries: "(in 1.2s)" and "(repeated 2 more times in 1.2s)".
var (
	alone  = regexp.MustCompile(` \(in [0-9.]+[a-zµ]+\)$`)
	within = regexp.MustCompile(` in [0-9.]+[a-zµ]+\)$`)
)

// summary is a record as these tests compare it: its message without the
// duration, and its counts.
func summary(r map[string]any) string {
	msg, _ := r["msg"].(string)
	msg = alone.ReplaceAllString(msg, "")
	msg = within.ReplaceAllString(msg, ")")
	return fmt.Sprintf("%s %v repeated=%v omitted=%v reason=%v", r["level"], msg, r["repeated"], r["omitted"], r["reason"])
}

func summaries(recs []map[string]any) string {
	var out []string
	for _, r := range recs {
		out = append(out, summary(r))
	}
	return strings.Join(out, "\n")
}

// TestFailuresWithOneReasonKeepTheirMessages: two failures of one tool with
// one code and one reason but different messages are each logged; the
// repeats of each are counted under it.
func TestFailuresWithOneReasonKeepTheirMessages(t *testing.T) {
	t.Parallel()
	recs := failOverStdio(t, []string{"None of 0 PMIDs returned data", "No item 9", "No item 9", "None of 0 PMIDs returned data", "No item 9"})
	want := strings.Join([]string{
		"ERROR Error in tool:fetch: None of 0 PMIDs returned data repeated=<nil> omitted=<nil> reason=no_data",
		"ERROR Error in tool:fetch: No item 9 repeated=<nil> omitted=<nil> reason=no_data",
		"ERROR Error in tool:fetch: None of 0 PMIDs returned data (repeated 1 more time) repeated=1 omitted=<nil> reason=no_data",
		"ERROR Error in tool:fetch: No item 9 (repeated 2 more times) repeated=2 omitted=<nil> reason=no_data",
	}, "\n")
	if got := summaries(recs); got != want {
		t.Errorf("records:\n%s\nwant:\n%s", got, want)
	}
}

// TestIdenticalFailuresAreOneRecordAndACount: 1000 identical failures are
// one record and one summary with the count.
func TestIdenticalFailuresAreOneRecordAndACount(t *testing.T) {
	t.Parallel()
	recs := failOverStdio(t, slicesOf(1000, func(int) string { return "No item 9" }))
	want := strings.Join([]string{
		"ERROR Error in tool:fetch: No item 9 repeated=<nil> omitted=<nil> reason=no_data",
		"ERROR Error in tool:fetch: No item 9 (repeated 999 more times) repeated=999 omitted=<nil> reason=no_data",
	}, "\n")
	if got := summaries(recs); got != want {
		t.Errorf("records:\n%s\nwant:\n%s", got, want)
	}
}

// TestDistinctFailuresAreBounded: a client that makes every failure's
// message new ("No item 1", "No item 2", …) gets 10 of them logged and the
// rest counted in one summary that names the kind.
func TestDistinctFailuresAreBounded(t *testing.T) {
	t.Parallel()
	const calls = 100
	recs := failOverStdio(t, slicesOf(calls, func(i int) string { return fmt.Sprint("No item ", i) }))
	var want []string
	for i := range 10 {
		want = append(want, fmt.Sprintf("ERROR Error in tool:fetch: No item %d repeated=<nil> omitted=<nil> reason=no_data", i))
	}
	want = append(want, fmt.Sprintf("ERROR mcpcore: %d more records of tool:fetch code %d reason no_data with other messages than the 10 logged repeated=<nil> omitted=%d reason=no_data", calls-10, mcperr.CodeNotFound, calls-10))
	if got := summaries(recs); got != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func slicesOf(n int, f func(int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}
