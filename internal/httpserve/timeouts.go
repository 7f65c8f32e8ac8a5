package httpserve

import (
	"net/http"
	"time"
)

// WriteTimeout is how long one write of a response may block on a client
// that does not read (at least half of it, see writeDeadline.extend). A
// server-wide WriteTimeout would cut the streams that stay open by design
// (a session's GET stream, a long call's SSE answer); a deadline per write
// cuts only a client that stopped reading.
const WriteTimeout = 30 * time.Second

// A writeDeadline gives every write of a response, and its end, a deadline
// of d from the moment it starts (see answerWriter).
type writeDeadline struct {
	d     time.Duration
	until time.Time // the deadline set last
}

// extend moves the deadline to d from now, unless more than half of d is
// still ahead: a response writes and flushes several times a call, and
// each move resets a timer of the runtime. A write may so be cut between
// d/2 and d after it starts.
func (w *writeDeadline) extend(rc *http.ResponseController) {
	now := time.Now()
	if w.until.Sub(now) > w.d/2 {
		return
	}
	w.until = now.Add(w.d)
	rc.SetWriteDeadline(w.until)
}
