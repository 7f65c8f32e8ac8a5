package httpserve

import (
	"net/http"
	"strings"
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

// A keepAlive sends keepAliveComment on a response that is an event stream
// (text/event-stream) each time it has been quiet for every; every <= 0
// sends none. The SDK writes each event in one Write, so a comment sent
// between writes never splits one; the answerWriter's mutex keeps the
// timer's writes and the handler's apart, and is held by every method.
type keepAlive struct {
	every time.Duration
	timer *time.Timer // nil until the response is known to be a stream
}

// start starts the timer when the response whose status line w has just
// written with code is a stream.
func (k *keepAlive) start(w *answerWriter, code int) {
	if k.every > 0 && code == http.StatusOK && strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		k.timer = time.AfterFunc(k.every, w.beat)
	}
}

// quiet restarts the count of a stream's quiet.
func (k *keepAlive) quiet() {
	if k.timer != nil {
		k.timer.Reset(k.every)
	}
}

// stop ends the beats.
func (k *keepAlive) stop() {
	if k.timer != nil {
		k.timer.Stop()
	}
}

// beat sends the comment, and waits for the next quiet spell.
func (w *answerWriter) beat() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended {
		return
	}
	w.limit.extend(w.rc)
	if _, err := w.ResponseWriter.Write(keepAliveComment); err != nil {
		return // the client is gone: the handler sees it on its next write
	}
	_ = w.rc.Flush()
	w.keepers.timer.Reset(w.keepers.every)
}
