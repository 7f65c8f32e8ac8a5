package httpserve

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// KeepAlive is how long an open event stream may stay quiet before it is
// sent a comment line: less than the idle timeouts of common balancers and
// proxies (haproxy's and nginx's defaults are 30 s and more, AWS's ALB 60 s),
// so that none of them cuts a stream waiting for its next event. The Go
// SDK sends none.
const KeepAlive = 15 * time.Second

// keepAliveComment is what a quiet stream is sent: an SSE comment, which
// every client ignores (the WHATWG event-stream format).
var keepAliveComment = []byte(": keep-alive\n\n")

// keepAlives sends keepAliveComment on a response that is an event stream
// (text/event-stream) each time it has been quiet for every; every <= 0
// sends none.
func keepAlives(every time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if every <= 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			kw := &keepAliveWriter{ResponseWriter: w, every: every}
			defer kw.stop()
			next.ServeHTTP(kw, r)
		})
	}
}

// A keepAliveWriter times the quiet of a stream. The SDK writes each event
// in one Write, so a comment sent between writes never splits one; mu
// keeps the timer's writes and the handler's apart.
type keepAliveWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController // made with the timer: most responses are no stream
	every time.Duration

	mu     sync.Mutex
	timer  *time.Timer // nil until the response is known to be a stream
	ended  bool
	header bool
}

func (w *keepAliveWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeader(code)
}

// writeHeader starts the timer when the response is a stream; mu is held.
func (w *keepAliveWriter) writeHeader(code int) {
	if w.header {
		return
	}
	w.header = true
	w.ResponseWriter.WriteHeader(code)
	if code == http.StatusOK && strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") && !w.ended {
		w.rc = http.NewResponseController(w.ResponseWriter)
		w.timer = time.AfterFunc(w.every, w.beat)
	}
}

func (w *keepAliveWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeader(http.StatusOK)
	w.quiet()
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher, for the SDK's ResponseController.
func (w *keepAliveWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeader(http.StatusOK)
	if w.rc == nil {
		_ = http.NewResponseController(w.ResponseWriter).Flush()
		return
	}
	_ = w.rc.Flush()
}

// quiet restarts the count of a stream's quiet; mu is held.
func (w *keepAliveWriter) quiet() {
	if w.timer != nil {
		w.timer.Reset(w.every)
	}
}

// beat sends the comment, and waits for the next quiet spell.
func (w *keepAliveWriter) beat() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended {
		return
	}
	if _, err := w.ResponseWriter.Write(keepAliveComment); err != nil {
		return // the client is gone: the handler sees it on its next write
	}
	_ = w.rc.Flush()
	w.timer.Reset(w.every)
}

// stop ends the beats when the handler returns: the response is no longer
// the handler's to write.
func (w *keepAliveWriter) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = true
	if w.timer != nil {
		w.timer.Stop()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *keepAliveWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
