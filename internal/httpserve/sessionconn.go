package httpserve

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A sessionConn is the connection of one client's session on a stateful
// endpoint: the [mcp.Transport] its session connects to, and the
// [mcp.Connection] the session reads the messages of the client's POSTs
// from, each handed over decoded. An answer goes to the POST that carried
// its call; a message the server sends for a call goes to that call's
// POST; any other (a list change, a request made outside a call) to the
// session's GET stream, when the client holds one open.
type sessionConn struct {
	pipe
	id      string // Mcp-Session-Id
	user    string // the subject of its token, "" without authentication
	onClose func()

	session *mcp.ServerSession // set once connected

	mu    sync.Mutex
	calls map[jsonrpc.ID]*exchange // the calls in flight, by their ids
	get   *exchange                // the GET stream's, nil when none is open
}

func newSessionConn(id, user string, onClose func()) *sessionConn {
	return &sessionConn{pipe: newPipe(), id: id, user: user, onClose: onClose, calls: map[jsonrpc.ID]*exchange{}}
}

// Connect implements [mcp.Transport]: the connection is connected once.
func (c *sessionConn) Connect(context.Context) (mcp.Connection, error) { return c, nil }

// register records the calls ids of one POST, answered through ex; it
// returns an id already in flight instead, registering none.
func (c *sessionConn) register(ids []jsonrpc.ID, ex *exchange) (dup jsonrpc.ID, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		if _, busy := c.calls[id]; busy {
			return id, false
		}
	}
	for _, id := range ids {
		c.calls[id] = ex
	}
	return jsonrpc.ID{}, true
}

// forget removes the calls of ex that are still in flight, and returns
// their ids.
func (c *sessionConn) forget(ids []jsonrpc.ID, ex *exchange) []jsonrpc.ID {
	c.mu.Lock()
	defer c.mu.Unlock()
	var left []jsonrpc.ID
	for _, id := range ids {
		if c.calls[id] == ex {
			delete(c.calls, id)
			left = append(left, id)
		}
	}
	return left
}

// Write implements [mcp.Connection]. A message no request of the client's
// waits for any longer is refused as the SDK refuses it, an error that
// leaves the connection up.
func (c *sessionConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		ex := c.calls[resp.ID]
		delete(c.calls, resp.ID)
		c.mu.Unlock()
		if ex == nil || !ex.deliver(resp, true) {
			return fmt.Errorf("%w: write to closed stream", errRejected)
		}
		return nil
	}
	ex := exchangeOf(ctx)
	if ex == nil {
		c.mu.Lock()
		ex = c.get
		c.mu.Unlock()
	}
	if ex == nil || !ex.deliver(msg, false) {
		return fmt.Errorf("%w: write to closed stream", errRejected)
	}
	return nil
}

// Close implements [mcp.Connection]: the session is gone, its POSTs and
// its GET stream end.
func (c *sessionConn) Close() error {
	if c.close() && c.onClose != nil {
		c.onClose()
	}
	return nil
}

// SessionID implements [mcp.Connection].
func (c *sessionConn) SessionID() string { return c.id }
