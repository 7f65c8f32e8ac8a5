package mcptest

import (
	"context"
	"testing"

	"github.com/seed417024ea/mcpcore"
)

// A Harness runs a handler without a server: with a Context bound to its
// definition's contract (so ctx.Fail and ctx.RecoveryFor work as served),
// a context.Context the test can cancel, and a logger whose records the
// harness keeps (see [Harness.Logs]). The handler's input is not
// validated and its output not encoded: that is the server's part, which
// [Start] tests.
type Harness struct {
	t      testing.TB
	ctx    context.Context
	cancel context.CancelFunc
	logs   *Logs
}

// NewHarness returns a harness whose context ends with the test.
func NewHarness(t testing.TB) *Harness {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &Harness{t: t, ctx: ctx, cancel: cancel, logs: newLogs(t)}
}

// Cancel cancels the context of the handlers the harness runs, as a
// client's cancellation would.
func (h *Harness) Cancel() { h.cancel() }

// Context returns the harness's context.Context, to derive a deadline from
// (see [Harness.WithContext]).
func (h *Harness) Context() context.Context { return h.ctx }

// WithContext returns a harness sharing h's logs whose handlers run with
// ctx, such as one with a deadline.
func (h *Harness) WithContext(ctx context.Context) *Harness {
	ctx, cancel := context.WithCancel(ctx)
	h.t.Cleanup(cancel)
	return &Harness{t: h.t, ctx: ctx, cancel: cancel, logs: h.logs}
}

// Logs returns the records the handlers logged through ctx.Logger().
func (h *Harness) Logs() *Logs { return h.logs }

// RunTool runs tool's handler with in, as the server would after
// validating in, and returns what it returned. A panic is not recovered:
// it fails the test, with its stack.
func RunTool[In, Out any](h *Harness, tool mcpcore.Tool[In, Out], in In) (Out, error) {
	h.t.Helper()
	return tool.Handler(mcpcore.ContextForTest(h.ctx, tool, h.logs.logger()), in)
}
