package httpserve

import (
	"net/http"
	"time"
)

// WriteTimeout is how long one write of a response may block on a client
// that does not read (at least half of it, see deadlineWriter.extend). A server-wide WriteTimeout would cut the streams
// that stay open by design (a session's GET stream, a long call's SSE
// answer); a deadline per write cuts only a client that stopped reading.
const WriteTimeout = 30 * time.Second

// writeDeadlines gives every write of a response, and its end, a deadline
// of d from the moment it starts.
func writeDeadlines(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}
			next.ServeHTTP(dw, r)
			// What the server writes after the handler (the last chunk)
			// gets its own time, however long the stream stayed idle.
			dw.until = time.Time{}
			dw.extend()
		})
	}
}

type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	d     time.Duration
	until time.Time // the deadline set last
}

// extend moves the deadline to d from now, unless more than half of d is
// still ahead: a response writes and flushes several times a call, and
// each move resets a timer of the runtime. A write may so be cut between
// d/2 and d after it starts.
func (w *deadlineWriter) extend() {
	now := time.Now()
	if w.until.Sub(now) > w.d/2 {
		return
	}
	w.until = now.Add(w.d)
	w.rc.SetWriteDeadline(w.until)
}

func (w *deadlineWriter) Write(b []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(b)
}

func (w *deadlineWriter) Flush() {
	w.extend()
	w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
