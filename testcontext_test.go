package mcpcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type testKey struct{}

// TestContextForTestIsTheToolsOutsideACall: the Context a test builds for
// a handler run alone carries the test's context (deadline, values,
// cancellation), the tool's contract, and a logger that names the
// operation and redacts as a served call's does.
func TestContextForTestIsTheToolsOutsideACall(t *testing.T) {
	declared := mcpcore.Failure{Reason: "sold_out", Code: mcperr.CodeConflict, When: "Sold out.", Recovery: "Try tomorrow."}
	tool := mcpcore.Tool[struct{}, said]{Name: "buy", Description: "Buys.", Errors: []mcpcore.Failure{declared}}
	deadline := time.Now().Add(time.Hour)
	parent, cancel := context.WithDeadline(context.WithValue(context.Background(), testKey{}, "v"), deadline)
	var buf bytes.Buffer
	c := mcpcore.ContextForTest(parent, tool, slog.New(slog.NewJSONHandler(&buf, nil)))

	if d, ok := c.Deadline(); !ok || !d.Equal(deadline) || c.Value(testKey{}) != "v" {
		t.Errorf("deadline %v %v, value %v: want the test's", d, ok, c.Value(testKey{}))
	}
	e := c.Fail(declared, "", c.RecoveryFor(declared))
	if e.Code() != mcperr.CodeConflict || e.Data()["reason"] != "sold_out" || e.RecoveryHint() != "Try tomorrow." {
		t.Errorf("Fail of a declared failure: %v %v", e, e.Data())
	}
	if e := c.Fail(mcpcore.Failure{Reason: "other", Code: mcperr.CodeConflict}, ""); e.Code() != mcperr.CodeInternalError {
		t.Errorf("Fail of an undeclared failure: %v, want an internal error", e)
	}
	c.Logger().Info("bought", "password", "hunter2")
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil || rec["operation"] != "tool:buy" || rec["password"] != "[REDACTED]" {
		t.Errorf("record %s: want the operation, redacted", buf.String())
	}
	cancel()
	if c.Err() == nil {
		t.Error("the test's cancellation did not reach the Context")
	}
	if c := mcpcore.ContextForTest(context.Background(), tool, nil); c.Logger() == nil || !strings.Contains(c.Fail(declared, "").Message(), "Sold out.") {
		t.Error("a nil logger: want slog.Default and a working contract")
	}
}
