package httpserve

import (
	"context"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// exchangeKey is the context key of a call's exchange (see [Endpoints.Bind]).
type exchangeKey struct{}

// exchangeOf is the exchange a call's context carries, or nil.
func exchangeOf(ctx context.Context) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// An exchange is what a request served on a session of the endpoint's own
// is answered through: the writer of a POST's answer until each of its
// calls has its answer or its client hangs up, or of a GET stream until it
// ends.
type exchange struct {
	w       http.ResponseWriter
	version string // the request's protocol version

	mu       sync.Mutex
	pending  int // the calls not answered
	finished bool
	done     chan struct{} // closed when the last call is answered
}

func newExchange(w http.ResponseWriter, version string, calls int) *exchange {
	return &exchange{w: w, version: version, pending: calls, done: make(chan struct{})}
}

// deliver writes msg on the answer, as the SDK's handler writes it: an
// event of the stream, or, for a protocol error of the 2026-07-28
// protocol, a JSON body with the HTTP status the protocol gives it. It
// reports false when the exchange is over. The last answer ends it.
func (ex *exchange) deliver(msg jsonrpc.Message, answer bool) bool {
	data, err := jsonrpc.EncodeMessage(msg)
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.finished {
		return false
	}
	if answer {
		if ex.pending--; ex.pending <= 0 {
			ex.finished = true
			defer close(ex.done)
		}
	}
	if err != nil {
		return true
	}
	if status := errorStatus(ex.version, msg); status != 0 {
		ex.w.Header().Set("Content-Type", "application/json")
		ex.w.WriteHeader(status)
		_, _ = ex.w.Write(data)
		return true
	}
	buf := frames.Get().(*[]byte)
	frame := append((*buf)[:0], "event: message\ndata: "...)
	frame = append(append(frame, data...), "\n\n"...)
	// The last answer is not flushed: the POST ends at once, and the
	// server sends it with the end of the stream, in one write.
	if _, err := ex.w.Write(frame); err == nil && !ex.finished {
		flush(ex.w)
	}
	if cap(frame) <= maxPooledFrame {
		*buf = frame
		frames.Put(buf)
	}
	return true
}

// streamHeaders sets on h the headers of an answer that is an event
// stream, as the SDK's handler sets them.
func streamHeaders(h http.Header) {
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Content-Type", "text/event-stream")
	h.Set("Connection", "keep-alive")
}

// attach makes ex the exchange of the POST answered through w, where its
// calls find it (Endpoints.Bind).
func attach(w http.ResponseWriter, ex *exchange) {
	if aw := answerWriterOf(w); aw != nil {
		aw.mu.Lock()
		aw.exchange = ex
		aw.mu.Unlock()
	}
}

// requestExtra is what a session's handlers learn of the HTTP request that
// carried a message: its token and its headers.
func requestExtra(r *http.Request) *mcp.RequestExtra {
	return &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header}
}

// frames are the buffers events are framed in: the writer copies an
// event out before its Write returns.
var frames = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledFrame bounds the buffers kept, so that one large answer does
// not pin its size for good.
const maxPooledFrame = 64 << 10

// finish ends an exchange whose client left: nothing more is written.
func (ex *exchange) finish() {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.finished = true
}

// flush sends what w holds.
func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// errorStatus is the HTTP status of an answer of protocol version that is
// a protocol error, from 2026-07-28 on (the SDK's extractErrorStatus); 0
// for any other message.
func errorStatus(version string, msg jsonrpc.Message) int {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error == nil || version < standardHeadersVersion {
		return 0
	}
	jerr, ok := errchain.As[*jsonrpc.Error](resp.Error)
	if !ok {
		return 0
	}
	switch jerr.Code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, mcp.CodeUnsupportedProtocolVersion, mcp.CodeMissingRequiredClientCapabilities:
		return http.StatusBadRequest
	}
	return 0
}
