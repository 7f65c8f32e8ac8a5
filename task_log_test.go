package mcpcore_test

import (
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// staleQuery is declared at warning: the level its record must have.
var staleQuery = mcpcore.Failure{Code: mcperr.CodeNotFound, Reason: "stale_query", When: "The query went stale.",
	Recovery: "Run it again.", Severity: mcpcore.SeverityWarning}

// staleTool becomes a task after its window, then logs once from its
// handler and fails with staleQuery once release is closed.
func staleTool(release <-chan struct{}) mcpcore.Tool[taskIn, said] {
	return mcpcore.Tool[taskIn, said]{
		Name: "stale", Description: "Goes stale.", Errors: []mcpcore.Failure{staleQuery},
		Task: mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: time.Millisecond},
		Handler: func(ctx *mcpcore.Context, _ taskIn) (said, error) {
			<-release
			ctx.Logger().Info("still working")
			return said{}, ctx.Fail(staleQuery, "The query went stale.")
		},
	}
}

// startStale serves staleTool with repeats collapsed over window (negative:
// never), and returns the endpoint, the logs and release.
func startStale(t *testing.T, window time.Duration) (string, *wiretest.LogBuffer, chan struct{}) {
	t.Helper()
	release := make(chan struct{})
	srv, logs := newServer(t, &mcpcore.ServerOptions{Config: mcpcore.Config{Stateless: true}, RepeatWindow: window}, staleTool(release))
	return serveHTTP(t, srv), logs, release
}

// TestTaskFailureLoggedOnceAtDeclaredSeverity: a task's failure is logged
// once, when the task ends (not when its request is answered), at the
// level its contract declares, with the request's id and the task's; the
// handler's own records after the boundary carry the task's id too. The
// id is not among what tells repeated failures apart: the same failure of
// two tasks is collapsed as that of two calls is.
func TestTaskFailureLoggedOnceAtDeclaredSeverity(t *testing.T) {
	t.Parallel()
	t.Run("one record", func(t *testing.T) {
		t.Parallel()
		endpoint, logs, release := startStale(t, -1)
		id := callTask(t, endpoint, "stale", nil, "")["taskId"].(string)
		if got := logs.Failures(t, "stale"); len(got) != 0 {
			t.Fatalf("logged at the boundary: %v", got)
		}
		close(release)
		settled(t, endpoint, id, "", "completed")
		recs := logs.Failures(t, "stale")
		if len(recs) != 1 {
			t.Fatalf("%d failure records, want 1:\n%s", len(recs), logs)
		}
		r := recs[0]
		if r["level"] != "WARN" || r["taskId"] != id || r["reason"] != "stale_query" || r["requestId"] == nil || r["operation"] != "tool:stale" {
			t.Errorf("failure record %v, want WARN, taskId %s, reason stale_query, requestId, operation", r, id)
		}
		var handler, finished map[string]any
		for _, r := range logs.Records(t) {
			switch r["msg"] {
			case "still working":
				handler = r
			case "Finished tool:stale":
				finished = r
			}
		}
		for what, rec := range map[string]map[string]any{"the handler's record": handler, "the completion record": finished} {
			if rec == nil || rec["taskId"] != id || rec["requestId"] != r["requestId"] {
				t.Errorf("%s %v, want taskId %s and requestId %v", what, rec, id, r["requestId"])
			}
		}
	})
	t.Run("repeats collapse", func(t *testing.T) {
		t.Parallel()
		endpoint, logs, release := startStale(t, time.Hour)
		first := callTask(t, endpoint, "stale", nil, "")["taskId"].(string)
		second := callTask(t, endpoint, "stale", nil, "")["taskId"].(string)
		close(release)
		settled(t, endpoint, first, "", "completed")
		settled(t, endpoint, second, "", "completed")
		if recs := logs.Failures(t, "stale"); len(recs) != 1 {
			t.Errorf("%d failure records for two equal failures within the window, want 1:\n%s", len(recs), logs)
		}
	})
}
