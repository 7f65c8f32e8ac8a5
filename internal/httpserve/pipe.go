package httpserve

import (
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A pipe carries the messages of a session's POSTs to its connection's
// Read, until the connection closes: the part the endpoint's two kinds of
// connection (sessionConn, sharedConn) share.
type pipe struct {
	in     chan jsonrpc.Message
	closed chan struct{}
	once   sync.Once
}

func newPipe() pipe { return pipe{in: make(chan jsonrpc.Message), closed: make(chan struct{})} }

// send hands msg to the session; false when the connection has closed.
func (p *pipe) send(msg jsonrpc.Message) bool {
	select {
	case p.in <- msg:
		return true
	case <-p.closed:
		return false
	}
}

// Read implements [mcp.Connection]. It fails only once the connection is
// closed: any error would end every call of the session.
func (p *pipe) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-p.in:
		return msg, nil
	case <-p.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// close closes the pipe, and reports whether this call did.
func (p *pipe) close() (first bool) {
	p.once.Do(func() {
		close(p.closed)
		first = true
	})
	return first
}

func (p *pipe) isClosed() bool {
	select {
	case <-p.closed:
		return true
	default:
		return false
	}
}

// wait waits until ex has the answers to its POST's calls, the
// connection closes, or the POST's client hangs up (ctx ends), and reports
// whether the client hung up; ex then takes no more messages.
func (p *pipe) wait(ctx context.Context, ex *exchange) (hungUp bool) {
	select {
	case <-ex.done:
		return false
	case <-p.closed:
		return false
	case <-ctx.Done():
	}
	ex.finish()
	return true
}

// cancel hands the session the cancellation of its call id, as the
// client would send it.
func (p *pipe) cancel(id any) bool {
	params, _ := json.Marshal(map[string]any{"requestId": id, "reason": "the client hung up"})
	return p.send(&jsonrpc.Request{Method: "notifications/cancelled", Params: params})
}
