package mcpcore

import (
	"context"
	"math"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// Progress throttling: a burst of progressBurst notifications, then at most
// one every progressInterval, so that a handler reporting from a tight loop
// cannot flood the client (or a slow client's stream).
const (
	progressBurst    = 10
	progressInterval = 50 * time.Millisecond
)

// progress is the progress state of one call.
type progress struct {
	limiter *rate.Limiter
	sent    bool
	last    float64
	final   bool // the completing report was sent
}

// Progress tells the client how far the call has come: done out of total
// (total 0 when unknown), with an optional message for a human. It sends
// notifications/progress when the client asked for progress (it sent a
// progress token with the call); otherwise it does nothing, so a handler
// can report unconditionally.
//
// Progress only ever moves forward: a report whose done is not greater
// than the last one sent is dropped, as MCP requires. Reports are
// throttled (a burst of 10, then one every 50 ms); a dropped report costs nothing, and the
// first report that completes the work (done >= total > 0) is always sent.
// A done that is not a finite number is dropped; a total that is not a
// finite positive number is sent as 0, unknown. The message is scrubbed of
// secrets like every log record.
//
// Once the call runs as a task (see [TaskSupport]) no notification is sent:
// each report becomes the task's statusMessage (the message, else "3 of 7"
// or "42%"), which the client reads with tasks/get; at most one report is
// written per half poll interval, the others dropped. Progress is best effort: a notification
// that cannot be delivered does not fail the call.
func (c *Context) Progress(done, total float64, message string) {
	if c == nil || math.IsNaN(done) || math.IsInf(done, 0) {
		return
	}
	if c.task != nil && c.task.detached.Load() {
		// No progress notifications on tasks: the task's statusMessage.
		c.reportTask(done, total, message)
		return
	}
	if c.x == nil || c.x.progressToken == nil || c.session == nil {
		return
	}
	x := c.x
	if !(total > 0) || math.IsInf(total, 0) {
		total = 0
	}
	x.mu.Lock()
	p := &x.progress
	if x.closed || (p.sent && done <= p.last) {
		x.mu.Unlock()
		return
	}
	if p.limiter == nil {
		p.limiter = rate.NewLimiter(rate.Every(progressInterval), progressBurst)
	}
	final := total > 0 && done >= total && !p.final
	if !p.limiter.Allow() && !final {
		x.mu.Unlock()
		return
	}
	p.sent, p.last, p.final = true, done, p.final || final
	x.mu.Unlock()
	err := c.session.NotifyProgress(context.WithoutCancel(c), &mcp.ProgressNotificationParams{
		ProgressToken: x.progressToken,
		Progress:      done,
		Total:         total,
		Message:       redact.String(message),
	})
	if err != nil {
		c.reqLog().Debug("mcpcore: a progress notification could not be sent", "error", err.Error())
	}
}
