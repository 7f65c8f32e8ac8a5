package httpserve

import (
	"bytes"
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
//
// The answer to a POST is quiet from its start: the SDK writes its status
// line with the first event, which for a long call is its result. Once a
// call of the POST has reached the server (see [Endpoints.Bind]) the SDK has
// set the answer's headers; if they make it an event stream, the timer
// runs from the start of the request, and when it fires first it sends
// those headers and the status line with the comment.
type keepAlive struct {
	every time.Duration
	timer *time.Timer // nil until the response is known to be a stream
	// on is set while the response is a stream whose status line is out:
	// a timer that fires as the status line of another answer goes out
	// finds it unset.
	on bool
	// stream is the answer's headers, as the SDK set them, while the status
	// line of a POST answered as a stream is not out.
	stream http.Header
	// early is set when the timer sent the status line, before the handler
	// wrote; reframe when the handler then wrote a status of its own,
	// whose body must go down the stream as an event.
	early, reframe bool
}

// start starts the timer when the response whose status line w has just
// written with code is a stream.
func (k *keepAlive) start(w *answerWriter, code int) {
	k.on = k.every > 0 && code == http.StatusOK && isEventStream(w.header)
	if !k.on {
		k.stop()
		return
	}
	if k.timer == nil {
		k.timer = time.AfterFunc(k.every, w.beat)
		return
	}
	k.timer.Reset(k.every)
}

// arrived starts the timer of a POST whose answer is quiet when one of its
// calls reaches the server, if the SDK answers it with a stream: the first
// beat is due every after the request began. mu is held; the SDK set the
// headers before it handed the call on, and sets none until it answers.
func (k *keepAlive) arrived(w *answerWriter) {
	if k.every <= 0 || k.timer != nil || w.wrote || w.ended || !isEventStream(w.header) {
		return
	}
	if ex := w.exchange; ex != nil && ex.version < standardHeadersVersion {
		// An exchange of the endpoint's sets the answer's headers once,
		// before the call reaches the server, and under such a version
		// never again.
		k.stream = w.header
	} else {
		k.stream = w.header.Clone()
	}
	k.timer = time.AfterFunc(max(time.Until(w.began.Add(k.every)), 0), w.beat)
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

func isEventStream(h http.Header) bool {
	return strings.HasPrefix(h.Get("Content-Type"), "text/event-stream")
}

// beat sends the comment, and waits for the next quiet spell. On a stream
// whose status line is not out, the status line and the headers the SDK
// set go first.
func (w *answerWriter) beat() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended {
		return
	}
	if !w.wrote {
		w.wrote, w.keepers.early, w.keepers.on = true, true, true
		copyHeader(w.ResponseWriter.Header(), w.keepers.stream)
		w.ResponseWriter.WriteHeader(http.StatusOK)
	}
	if !w.keepers.on {
		return
	}
	w.limit.extend(&w.rc)
	if _, err := w.ResponseWriter.Write(keepAliveComment); err != nil {
		return // the client is gone: the handler sees it on its next write
	}
	_ = w.rc.Flush()
	w.keepers.timer.Reset(w.keepers.every)
}

// asEvent is b, a body the SDK wrote as a whole answer of its own (a
// JSON-RPC error with an HTTP status of its own, from protocol 2026-07-28),
// as an event of the stream whose status line a beat already sent.
func asEvent(b []byte) []byte {
	var e bytes.Buffer
	e.Grow(len("event: message\ndata: \n\n") + len(b))
	e.WriteString("event: message\n")
	for line := range bytes.Lines(bytes.TrimRight(b, "\r\n")) {
		e.WriteString("data: ")
		e.Write(bytes.TrimRight(line, "\r\n"))
		e.WriteByte('\n')
	}
	e.WriteByte('\n')
	return e.Bytes()
}
