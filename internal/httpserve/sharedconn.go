package httpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// A sharedConn is the connection of a shared session: the [mcp.Transport]
// the session connects to, and the [mcp.Connection] it reads the calls of
// many POSTs from. Each call goes in under an id of the connection's own,
// since two clients may both call with id 1; its answer goes back to its
// POST under the client's.
type sharedConn struct {
	in     chan *jsonrpc.Request
	closed chan struct{}
	once   sync.Once

	mu    sync.Mutex
	next  int64
	calls map[int64]*exchange // by the connection's ids, until answered
}

func newSharedConn() *sharedConn {
	return &sharedConn{in: make(chan *jsonrpc.Request), closed: make(chan struct{}), calls: map[int64]*exchange{}}
}

// Connect implements [mcp.Transport]: a shared connection is connected
// once.
func (c *sharedConn) Connect(context.Context) (mcp.Connection, error) { return c, nil }

// call hands req to the session under a fresh id, and waits until ex, its
// POST's exchange, has its answer, the client hangs up (ctx ends), or the
// session ends. A client that hangs up cancels its call, as if it had
// sent notifications/cancelled.
func (c *sharedConn) call(ctx context.Context, ex *exchange, req *jsonrpc.Request) {
	c.mu.Lock()
	c.next++
	n := c.next
	c.calls[n] = ex
	c.mu.Unlock()
	req.ID, _ = jsonrpc.MakeID(float64(n))
	if !c.send(req) {
		return
	}
	select {
	case <-ex.done:
		return
	case <-c.closed:
		return
	case <-ctx.Done():
	}
	if c.take(n) == nil {
		return // answered as the client left
	}
	ex.finish()
	params, _ := json.Marshal(map[string]any{"requestId": n, "reason": "the client hung up"})
	c.send(&jsonrpc.Request{Method: "notifications/cancelled", Params: params})
}

// send hands req to the session; false when the session has ended.
func (c *sharedConn) send(req *jsonrpc.Request) bool {
	select {
	case c.in <- req:
		return true
	case <-c.closed:
		return false
	}
}

// take removes the exchange of the call n, and returns it (nil when it is
// no longer waited for).
func (c *sharedConn) take(n int64) *exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	ex := c.calls[n]
	delete(c.calls, n)
	return ex
}

// Read implements [mcp.Connection]. It fails only once the connection is
// closed: any error would end every call of the session.
func (c *sharedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case req := <-c.in:
		return req, nil
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// errRejected is the SDK's error for a message its transport cannot
// deliver, which leaves the connection up (jsonrpc2's ErrRejected, known
// by its code).
var errRejected = &jsonrpc.Error{Code: -32005, Message: "rejected by transport"}

// Write implements [mcp.Connection]. An answer goes to its call's POST, a
// notification to the POST of the call it was sent for (see
// [Endpoints.Bind]); one that belongs to no POST still waiting (its client
// left, or it is a broadcast to every session) is dropped. A request of
// the server cannot be made: no client listens on a shared session.
func (c *sharedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		n, ok := m.ID.Raw().(int64)
		if !ok {
			return nil
		}
		ex := c.take(n)
		if ex == nil {
			return nil
		}
		answer := *m
		answer.ID = ex.id
		ex.deliver(&answer, true)
	case *jsonrpc.Request:
		if m.IsCall() {
			return fmt.Errorf("%w: stateless servers cannot make requests", errRejected)
		}
		if ex, _ := ctx.Value(exchangeKey{}).(*exchange); ex != nil {
			ex.deliver(m, false)
		}
	}
	return nil
}

// Close implements [mcp.Connection]: the POSTs still waiting end without
// an answer, as the SDK's do when their session closes.
func (c *sharedConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *sharedConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// SessionID implements [mcp.Connection]: a shared session is no client's.
func (c *sharedConn) SessionID() string { return "" }

// exchangeKey is the context key of a call's exchange (see [Endpoints.Bind]).
type exchangeKey struct{}

// An exchange is what a POST served on a shared session is answered
// through: the writer of its answer, until its call has its answer or its
// client hangs up.
type exchange struct {
	w       *answerWriter
	id      jsonrpc.ID // the client's
	version string

	mu       sync.Mutex
	finished bool
	done     chan struct{} // closed when answered
}

// deliver writes msg on the POST's answer, as the SDK's handler writes
// it: an event of the stream, or, for a protocol error of the 2026-07-28
// protocol, a JSON body with the HTTP status the protocol gives it. The
// answer to the call ends the exchange.
func (ex *exchange) deliver(msg jsonrpc.Message, last bool) {
	data, err := jsonrpc.EncodeMessage(msg)
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.finished {
		return
	}
	if last {
		ex.finished = true
		defer close(ex.done)
	}
	if err != nil {
		return
	}
	if status := errorStatus(ex.version, msg); status != 0 {
		ex.w.Header().Set("Content-Type", "application/json")
		ex.w.WriteHeader(status)
		_, _ = ex.w.Write(data)
		return
	}
	frame := make([]byte, 0, len("event: message\ndata: \n\n")+len(data))
	frame = append(frame, "event: message\ndata: "...)
	frame = append(append(frame, data...), "\n\n"...)
	if _, err := ex.w.Write(frame); err == nil {
		ex.w.Flush()
	}
}

// finish ends an exchange whose client left: nothing more is written.
func (ex *exchange) finish() {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.finished = true
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
