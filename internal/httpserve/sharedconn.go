package httpserve

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A sharedConn is the connection of a shared session: the [mcp.Transport]
// the session connects to, and the [mcp.Connection] it reads the calls of
// many POSTs from. Each call goes in under an id of the connection's own,
// since two clients may both call with id 1; its answer goes back to its
// POST under the client's.
type sharedConn struct {
	pipe

	mu    sync.Mutex
	next  int64
	calls map[int64]waiting // by the connection's ids, until answered
}

// waiting is a call that waits for its answer: its POST's exchange, and
// the id its client gave it.
type waiting struct {
	ex *exchange
	id jsonrpc.ID
}

func newSharedConn() *sharedConn {
	return &sharedConn{pipe: newPipe(), calls: map[int64]waiting{}}
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
	c.calls[n] = waiting{ex, req.ID}
	c.mu.Unlock()
	req.ID, _ = jsonrpc.MakeID(float64(n))
	if !c.send(req) || !c.wait(ctx, ex) {
		return
	}
	if c.take(n).ex != nil { // not answered as the client left
		c.cancel(n)
	}
}

// take removes the call n, and returns it (with a nil exchange when it is
// no longer waited for).
func (c *sharedConn) take(n int64) waiting {
	c.mu.Lock()
	defer c.mu.Unlock()
	ex := c.calls[n]
	delete(c.calls, n)
	return ex
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
		call := c.take(n)
		if call.ex == nil {
			return nil
		}
		answer := *m
		answer.ID = call.id
		call.ex.deliver(&answer, true)
	case *jsonrpc.Request:
		if m.IsCall() {
			return fmt.Errorf("%w: stateless servers cannot make requests", errRejected)
		}
		if ex := exchangeOf(ctx); ex != nil {
			ex.deliver(m, false)
		}
	}
	return nil
}

// Close implements [mcp.Connection]: the POSTs still waiting end without
// an answer, as the SDK's do when their session closes.
func (c *sharedConn) Close() error {
	c.close()
	return nil
}

// SessionID implements [mcp.Connection]: a shared session is no client's.
func (c *sharedConn) SessionID() string { return "" }
