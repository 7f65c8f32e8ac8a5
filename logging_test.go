package mcpcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// severityTool declares one modeled failure at sev and fails in the way its
// input names.
func severityTool(name string, sev mcpcore.Severity) mcpcore.Tool[caseInput, okOutput] {
	declined := mcpcore.Failure{
		Reason:   "consent_declined",
		Code:     mcperr.CodeInvalidRequest,
		When:     "The caller declined the confirmation prompt.",
		Recovery: "Re-run the tool and confirm the prompt to proceed with the change.",
		Severity: sev,
	}
	return mcpcore.Tool[caseInput, okOutput]{
		Name:   name,
		Errors: []mcpcore.Failure{declined},
		Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
			switch in.Case {
			case "fail":
				return okOutput{}, ctx.Fail(declined, "", ctx.RecoveryFor(declined))
			case "service":
				// A declared reason raised below the handler.
				return okOutput{}, mcperr.InvalidRequest("Declined in the service",
					mcperr.WithData(map[string]any{"reason": "consent_declined"}))
			case "edited":
				// The framework's own InternalError about the contract,
				// naming a declared reason: not the declared failure.
				edited := declined
				edited.When = "Edited."
				return okOutput{}, ctx.Fail(edited, "")
			case "other_code":
				// The declared reason with another code: not the declared
				// failure either.
				return okOutput{}, mcperr.NotFound("Declined elsewhere",
					mcperr.WithData(map[string]any{"reason": "consent_declined"}))
			case "undeclared":
				return okOutput{}, mcperr.InvalidRequest("Something else",
					mcperr.WithData(map[string]any{"reason": "not_in_contract"}))
			case "plain":
				return okOutput{}, errors.New("plain failure")
			}
			return okOutput{OK: true}, nil
		},
	}
}

var severities = []struct {
	tool  string
	sev   mcpcore.Severity
	level string
}{
	{"sev_default", mcpcore.SeverityError, "ERROR"},
	{"sev_error", "error", "ERROR"},
	{"sev_warning", mcpcore.SeverityWarning, "WARN"},
	{"sev_notice", mcpcore.SeverityNotice, "NOTICE"},
	{"sev_info", mcpcore.SeverityInfo, "INFO"},
	{"sev_debug", mcpcore.SeverityDebug, "DEBUG"},
}

func severityServer(t *testing.T) []mcpcore.Definition {
	t.Helper()
	var defs []mcpcore.Definition
	for _, s := range severities {
		defs = append(defs, severityTool(s.tool, s.sev))
	}
	return defs
}

func TestFailureLogLevels(t *testing.T) {
	t.Parallel()
	for _, s := range severities {
		for _, tc := range []struct {
			c, level, msg string
		}{
			{"fail", s.level, "The caller declined the confirmation prompt."},
			{"service", s.level, "Declined in the service"},
			{"undeclared", "ERROR", "Something else"},
			{"plain", "ERROR", "plain failure"},
			{"edited", "ERROR", "ctx.Fail() called with a Failure 'consent_declined' that differs from the one declared in the Errors of tool \"" + s.tool + "\"; pass the declared value."},
			{"other_code", "ERROR", "Declined elsewhere"},
		} {
			t.Run(s.tool+"/"+tc.c, func(t *testing.T) {
				t.Parallel()
				cs, logs := connect(t, severityServer(t)...)
				wiretest.CallTool(t, cs, s.tool, map[string]any{"case": tc.c})
				recs := logs.Failures(t, s.tool)
				if len(recs) != 1 {
					t.Fatalf("%d failure records, want exactly 1:\n%s", len(recs), logs)
				}
				r := recs[0]
				if r["level"] != tc.level || r["msg"] != "Error in tool:"+s.tool+": "+tc.msg {
					t.Errorf("record level %v msg %q, want %s %q", r["level"], r["msg"], tc.level, "Error in tool:"+s.tool+": "+tc.msg)
				}
				if r["operation"] != "tool:"+s.tool {
					t.Errorf("operation = %v, want tool:%s", r["operation"], s.tool)
				}
				if r["stack"] != nil {
					t.Errorf("a returned error's record carries a stack")
				}
				if tc.c == "fail" && (r["reason"] != "consent_declined" || r["code"] != float64(mcperr.CodeInvalidRequest)) {
					t.Errorf("record reason %v code %v, want consent_declined -32600", r["reason"], r["code"])
				}
				// Nothing else was logged at the failure's level or above
				// error, and nothing else mentions the tool's failure.
				for _, other := range logs.Records(t) {
					if other["level"] == "ERROR" && other["msg"] != r["msg"] {
						t.Errorf("unexpected error record: %v", other)
					}
				}
			})
		}
	}
}

// TestSeverityDoesNotChangeTheWire compares the bytes a client receives from
// tools identical but for the severity of their failure.
func TestSeverityDoesNotChangeTheWire(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, severityServer(t)...)
	for _, c := range []string{"fail", "service", "undeclared", "plain"} {
		var want []byte
		for i, s := range severities {
			res := wiretest.CallTool(t, cs, s.tool, map[string]any{"case": c})
			got, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				want = got
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s:\n got %s\nwant %s (as %s)", s.tool, c, got, want, severities[0].tool)
			}
		}
	}
}

func TestSuccessLogsNoFailure(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, severityServer(t)...)
	for _, s := range severities {
		res := wiretest.CallTool(t, cs, s.tool, map[string]any{})
		wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"ok":true}`)
	}
	for _, r := range logs.Records(t) {
		if msg, _ := r["msg"].(string); strings.HasPrefix(msg, "Error in ") || r["level"] == "ERROR" {
			t.Errorf("a successful call logged %v", r)
		}
	}
}

func TestLogLevelNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sev   mcpcore.Severity
		level slog.Level
	}{
		{mcpcore.SeverityError, slog.LevelError},
		{"error", slog.LevelError},
		{mcpcore.SeverityWarning, slog.LevelWarn},
		{mcpcore.SeverityNotice, mcpcore.LevelNotice},
		{mcpcore.SeverityInfo, slog.LevelInfo},
		{mcpcore.SeverityDebug, slog.LevelDebug},
	} {
		if got := tc.sev.Level(); got != tc.level {
			t.Errorf("Severity(%q).Level() = %v, want %v", tc.sev, got, tc.level)
		}
	}
	if !(slog.LevelInfo < mcpcore.LevelNotice && mcpcore.LevelNotice < slog.LevelWarn) {
		t.Errorf("LevelNotice %d is not between info and warning", mcpcore.LevelNotice)
	}

	for _, json := range []bool{false, true} {
		var buf bytes.Buffer
		log := slog.New(mcpcore.NewLogHandler(&buf, &mcpcore.LogOptions{Level: mcpcore.LevelNotice, JSON: json}))
		log.Info("dropped: below the handler's level")
		log.Log(context.Background(), mcpcore.LevelNotice, "kept")
		out := buf.String()
		want := "level=NOTICE"
		if json {
			want = `"level":"NOTICE"`
		}
		if !strings.Contains(out, want) || strings.Contains(out, "dropped") || strings.Count(out, "\n") != 1 {
			t.Errorf("json=%v: log = %q, want one record with %s", json, out, want)
		}
	}
}

func TestRepeatedFailuresCollapse(t *testing.T) {
	t.Parallel()
	flaky := mcpcore.Tool[caseInput, okOutput]{
		Name:   "flaky",
		Errors: []mcpcore.Failure{noMatch},
		Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
			switch in.Case {
			case "panic_a":
				panic("a")
			case "panic_b":
				panic("b")
			case "plain":
				return okOutput{}, errors.New("plain " + in.Case)
			}
			return okOutput{}, ctx.Fail(noMatch, "No item "+in.Case)
		},
	}
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: time.Hour}, flaky)
	cs := wiretest.Connect(t, srv.MCPServer())
	for i := range 20 {
		for _, c := range []string{fmt.Sprint(i), "panic_a", "panic_b", "plain"} {
			res := wiretest.CallTool(t, cs, "flaky", map[string]any{"case": c})
			if !res.IsError {
				t.Fatalf("%s: not an error", c)
			}
		}
	}
	// One record per distinct failure: each panic site, the plain error,
	// and each message of the declared reason up to 10 (the rest are
	// counted in a summary when the window closes). The client saw every
	// failure.
	recs := logs.Failures(t, "flaky")
	var msgs []string
	for _, r := range recs {
		msgs = append(msgs, r["msg"].(string))
	}
	slices.Sort(msgs)
	want := []string{
		"Error in tool:flaky: An internal error occurred in tool flaky.",
		"Error in tool:flaky: An internal error occurred in tool flaky.",
		"Error in tool:flaky: No item 0",
		"Error in tool:flaky: No item 1",
		"Error in tool:flaky: No item 2",
		"Error in tool:flaky: No item 3",
		"Error in tool:flaky: No item 4",
		"Error in tool:flaky: No item 5",
		"Error in tool:flaky: No item 6",
		"Error in tool:flaky: No item 7",
		"Error in tool:flaky: No item 8",
		"Error in tool:flaky: No item 9",
		"Error in tool:flaky: plain plain",
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("records:\n%s\nwant %q", strings.Join(msgs, "\n"), want)
	}
}

// upstreamError is a service's own error type.
type upstreamError struct{ msg string }

func (e *upstreamError) Error() string { return e.msg }

// Only identical failures collapse: two failures of a kind with the same
// message but another type or cause are two records, each naming its own;
// a true repeat is still counted, not logged.
func TestOnlyIdenticalFailuresCollapse(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[caseInput, okOutput]{
		Name:   "fetch",
		Errors: []mcpcore.Failure{noMatch},
		Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
			switch in.Case {
			case "plain":
				return okOutput{}, errors.New("upstream failed")
			case "typed":
				return okOutput{}, &upstreamError{"upstream failed"}
			case "eof":
				return okOutput{}, ctx.Fail(noMatch, "No such item", mcperr.WithCause(io.EOF))
			case "deadline":
				return okOutput{}, ctx.Fail(noMatch, "No such item", mcperr.WithCause(context.DeadlineExceeded))
			}
			return okOutput{OK: true}, nil
		},
	}
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: time.Hour}, tool)
	cs := wiretest.Connect(t, srv.MCPServer())
	for range 3 {
		for _, c := range []string{"plain", "typed", "eof", "deadline"} {
			wiretest.CallTool(t, cs, "fetch", map[string]any{"case": c})
		}
	}
	var got []string
	for _, r := range logs.Failures(t, "fetch") {
		got = append(got, fmt.Sprintf("%v|%v|%v|%v", r["originalType"], r["original"], r["causeType"], r["cause"]))
	}
	slices.Sort(got)
	want := []string{
		"*errors.errorString|upstream failed|<nil>|<nil>",
		"*mcpcore_test.upstreamError|upstream failed|<nil>|<nil>",
		"<nil>|<nil>|*errors.errorString|EOF",
		"<nil>|<nil>|context.deadlineExceededError|context deadline exceeded",
	}
	if !slices.Equal(got, want) {
		t.Errorf("records (originalType|original|causeType|cause):\n%s\nwant one per distinct failure, each logged once", strings.Join(got, "\n"))
	}
}

func TestRepeatedFailuresAreSummarised(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: 50 * time.Millisecond}, searchTool)
	cs := wiretest.Connect(t, srv.MCPServer())
	const calls = 5
	for range calls {
		wiretest.CallTool(t, cs, "search", map[string]any{"case": "default_message"})
	}
	// Each failure is in a record of its own or counted in a summary;
	// nothing is lost, whatever the timing.
	count := func() (n int) {
		for _, r := range logs.Failures(t, "search") {
			n++
			if rep, ok := r["repeated"].(float64); ok {
				n += int(rep) - 1
				if !strings.Contains(r["msg"].(string), "(repeated ") || r["reason"] != "no_match" || r["operation"] != "tool:search" {
					t.Errorf("summary record: %v", r)
				}
			}
		}
		return n
	}
	mcptest.WaitFor(t, "every failure logged or counted", func() bool { return count() == calls })
}

// TestRepeatCountsSurviveTheEndOfASession: a stdio server ends when its
// client closes stdin; the counts of the failures collapsed so far are
// written then, not lost with the process.
func TestRepeatCountsSurviveTheEndOfASession(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: time.Hour}, searchTool)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-06-18")
	for i := range 3 {
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"case":"default_message"}}}`+"\n", i+1))
		s.next(t)
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
	recs := logs.Failures(t, "search")
	if len(recs) != 2 || recs[1]["repeated"] != float64(2) ||
		!strings.HasPrefix(recs[1]["msg"].(string), "Error in tool:search: No items matched the query. (repeated 2 more times in ") {
		t.Errorf("records: %v", recs)
	}
}

func TestSDKChatterIsDebug(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, benchTool)
	wiretest.CallTool(t, cs, "echo", map[string]any{"message": "hi"})
	cs.Close()
	sdk := 0
	for _, r := range logs.Records(t) {
		msg, _ := r["msg"].(string)
		if strings.HasPrefix(msg, "server ") || strings.Contains(msg, "session") && !strings.HasPrefix(msg, "mcpcore") {
			sdk++
			if r["level"] != "DEBUG" {
				t.Errorf("the SDK's record %q is at %v, want DEBUG", msg, r["level"])
			}
		}
	}
	if sdk == 0 {
		t.Error("no SDK record seen at debug; the test no longer sees what it checks")
	}
}

func TestClientMistakesAreNotices(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, benchTool)
	wiretest.CallTool(t, cs, "echo", map[string]any{"message": 7})
	recs := logs.Failures(t, "tool:echo")
	if len(recs) != 1 || recs[0]["level"] != "NOTICE" {
		t.Errorf("failure records = %v, want one at NOTICE for arguments that do not fit the schema", recs)
	}
	wiretest.CallTool(t, cs, "echo", map[string]any{"message": "x", "fail": true})
	if recs := logs.Failures(t, "tool:echo"); len(recs) != 2 || recs[1]["level"] != "ERROR" {
		t.Errorf("failure records = %v, want the declared failure at ERROR", recs)
	}
}

// A failure's record is bounded, whatever its handler's message quotes of
// the input: the client gets the message whole, the log its first
// repeats.MaxFailureBytes bytes and its length.
func TestFailureRecordsAreBounded(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[caseInput, okOutput]{
		Name:   "fetch",
		Errors: []mcpcore.Failure{noMatch},
		Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
			if strings.HasPrefix(in.Case, "plain") {
				return okOutput{}, errors.New("No item " + in.Case)
			}
			return okOutput{}, ctx.Fail(noMatch, "No item "+in.Case, mcperr.WithCause(errors.New("upstream said "+in.Case)))
		},
	}
	srv, logs := newServer(t, nil, tool)
	cs := wiretest.Connect(t, srv.MCPServer())
	long := strings.Repeat("x", 1<<20)
	for _, c := range []string{long, "plain" + long} {
		res := wiretest.CallTool(t, cs, "fetch", map[string]any{"case": c})
		if e := structuredError(t, res); len(e["message"].(string)) < 1<<20 {
			t.Errorf("the client got a message of %d bytes, want it whole", len(e["message"].(string)))
		}
	}
	recs := logs.Failures(t, "fetch")
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		b, _ := json.Marshal(r)
		if len(b) > 3*(4<<10) || !strings.Contains(r["msg"].(string), " bytes)") {
			t.Errorf("a record of %d bytes: %.300s", len(b), b)
		}
	}
}
