package httpserve

import (
	"net/http"
	"sync"
	"time"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// An answerWriter is what every request to the endpoint is answered
// through. It does three things, each in its own file: a deadline on each
// write (timeouts.go), comments on quiet event streams (keepalive.go) and,
// from the body guard on, JSON-RPC errors in place of the SDK's plain-text
// refusals (rpcanswer.go). One writer rather than three wrapped in one
// another: each wrapper cost a dispatch and a ResponseController walk on
// every write and flush of every answer, about 3 % of a call.
type answerWriter struct {
	http.ResponseWriter
	rc    http.ResponseController // held by value: one allocation less per request
	began time.Time               // when the request came

	// header is the handler's headers, those of the response once its
	// status line goes out: a map of its own, so that the keep-alive timer
	// can send the status line while the SDK still sets headers of an
	// answer that will not go (see keepAlive.arrived).
	header http.Header

	// mu keeps the keep-alive timer's writes and the handler's apart; it
	// guards everything below that the timer reads or writes.
	mu      sync.Mutex
	wrote   bool // the status line is written
	ended   bool // the handler has returned
	keepers keepAlive
	limit   writeDeadline

	// exchange is the POST's on a shared session, nil when it has none;
	// set once, before its call reaches the server.
	exchange *exchange

	// The JSON-RPC answers, which only the handler's goroutine touches.
	answers jsonRPCAnswers
}

// answerThrough serves every request through an answerWriter: writes
// bounded by writeTimeout, streams kept alive every keepAlive (none when
// it is not positive).
func answerThrough(writeTimeout, keepAlive time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			aw := &answerWriter{ResponseWriter: w, rc: *http.NewResponseController(w), began: time.Now(), header: http.Header{}}
			aw.limit.d = writeTimeout
			aw.keepers.every = keepAlive
			next.ServeHTTP(aw, r)
			aw.end()
		})
	}
}

// end is what follows the handler: the refusal whose text never came is
// answered, the beats stop (the response is no longer the handler's to
// write), and what the server writes after the handler (the last chunk)
// gets at least half the deadline, however long the stream stayed quiet.
func (w *answerWriter) end() {
	w.answers.finish(w)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = true
	w.keepers.stop()
	w.limit.extend(&w.rc)
}

// Header is the handler's headers (see header).
func (w *answerWriter) Header() http.Header { return w.header }

func (w *answerWriter) WriteHeader(code int) {
	if w.answers.on && !w.answers.header(w, code) {
		return
	}
	w.sendHeader(code)
}

// sendHeader writes the status line, as the handler's WriteHeader and the
// answers write it.
func (w *answerWriter) sendHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeader(code)
}

// writeHeader writes the status line once, with the handler's headers,
// and starts the beats of a stream; mu is held. A status the handler
// writes after a beat sent the line is lost, and its body goes down the
// stream as an event.
func (w *answerWriter) writeHeader(code int) {
	if w.wrote {
		if w.keepers.early && code != http.StatusOK {
			w.keepers.reframe = true
		}
		return
	}
	w.wrote = true
	copyHeader(w.ResponseWriter.Header(), w.header)
	w.ResponseWriter.WriteHeader(code)
	if !w.ended {
		w.keepers.start(w, code)
	}
}

func (w *answerWriter) Write(b []byte) (int, error) {
	if w.answers.on {
		if done := w.answers.write(w, b); done {
			return len(b), nil
		}
		if fixed, changed := realCodes(b); changed {
			if _, err := w.send(fixed); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	return w.send(b)
}

// send writes b on the response, as the handler's writes and the answers
// go out: after the status line, restarting the count of a stream's quiet,
// within the deadline, with the secrets the process keeps masked
// (redact.MaskBytes; the SDK writes each message, or each event, whole).
func (w *answerWriter) send(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeader(http.StatusOK)
	w.keepers.quiet()
	w.limit.extend(&w.rc)
	out := redact.MaskBytes(b)
	if w.keepers.reframe {
		out = asEvent(out)
	}
	if n, err := w.ResponseWriter.Write(out); err != nil {
		return min(n, len(b)), err
	}
	return len(b), nil
}

// copyHeader sets the headers of src on dst.
func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = v
	}
}

// Flush implements http.Flusher, for the SDK's ResponseController.
func (w *answerWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeader(http.StatusOK)
	w.limit.extend(&w.rc)
	_ = w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (w *answerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
