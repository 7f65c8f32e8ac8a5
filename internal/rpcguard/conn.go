package rpcguard

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// Transport returns an SDK transport over the guarded stream that hands the
// SDK each valid message already decoded: the guard has parsed every line
// to check it, and the SDK's own connection (an [mcp.IOTransport]) would
// decode it again, with a fresh decoder and buffer for each line. A guard
// serves one connection.
//
// The connection keeps what the SDK's own does: a batch of requests the
// guard lets through is answered in one array, once every request of it
// has its answer; what it answers and refuses by itself is the guard's, as
// it would be on the SDK's own, batches after 2025-06-18 included (the guard reads
// the negotiated version from the answer to initialize, as the SDK's
// connection learns it from the session).
func (g *Guard) Transport() mcp.Transport { return transport{g} }

type transport struct{ g *Guard }

// Connect implements [mcp.Transport].
func (t transport) Connect(context.Context) (mcp.Connection, error) {
	c := &conn{g: t.g, dec: t.g.in.dec, incoming: make(chan incoming), closed: make(chan struct{})}
	// Reads run on a goroutine of their own, so that Close unblocks a Read
	// waiting for input that never comes (stdin cannot be interrupted).
	go c.readLoop()
	return c, nil
}

// decoded is the reader's side of a connection: the messages checked and
// not yet read by the SDK, and the batches waiting for their answers.
type decoded struct {
	queue []jsonrpc.Message // on the reading goroutine only

	mu      sync.Mutex
	batches map[id]batchSlot // by the ids of the requests still unanswered
}

// pass queues a valid message. It reports false for one the SDK cannot
// decode, which it would end the connection on: the check lets none
// through that the guard knows of.
func (d *decoded) pass(m *message) bool {
	msg, err := decode(m)
	if err != nil {
		return false
	}
	d.queue = append(d.queue, msg)
	return true
}

// undecodable answers a message that [decoded.pass] refused.
var undecodable = invalidRequest("the message could not be decoded")

// passBatch queues the valid messages of a batch, and records its requests
// so that their answers go out in one array. It reports false as pass
// does, having queued the messages before the one refused.
func (d *decoded) passBatch(pass []*message) bool {
	if b := newBatchAnswer(pass); b != nil {
		d.mu.Lock()
		for n, i := range b.ids {
			d.batches[i] = batchSlot{b, n}
		}
		d.mu.Unlock()
	}
	for _, m := range pass {
		if !d.pass(m) {
			return false
		}
	}
	return true
}

// answered records data, the answer to the request i. It reports whether i
// belongs to a batch, and, when data is the batch's last answer, returns
// the batch's ids and answers.
func (d *decoded) answered(i id, data []byte) (b *batchAnswer, inBatch bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	slot, ok := d.batches[i]
	if !ok {
		return nil, false
	}
	delete(d.batches, i)
	if !slot.b.fill(slot.n, data) {
		return nil, true
	}
	return slot.b, true
}

// decode builds the SDK's message from a valid one. A request is built
// from the members the check read; anything else, rare on a server's
// input (the client's answers to its requests), is decoded by the SDK.
// The line's buffer is reused: what the message keeps is copied.
func decode(m *message) (jsonrpc.Message, error) {
	if !m.request {
		return jsonrpc.DecodeMessage(bytes.Clone(m.raw))
	}
	req := &jsonrpc.Request{Method: m.method}
	if m.hasID {
		req.ID = m.id.rpc()
	}
	if m.params != nil {
		req.Params = bytes.Clone(m.params)
		if m.method == "tools/call" {
			req.Params = LiftTask(req.Params)
		}
	}
	return req, nil
}

type incoming struct {
	msg jsonrpc.Message
	err error
}

// conn is the [mcp.Connection] of [Guard.Transport].
type conn struct {
	g        *Guard
	dec      *decoded
	incoming chan incoming

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// readLoop reads the stream's messages until it ends or the connection
// closes.
func (c *conn) readLoop() {
	r := c.g.in
	for {
		var in incoming
		in.err = r.fill(func() bool { return len(c.dec.queue) > 0 })
		if in.err == nil {
			in.msg = c.dec.queue[0]
			c.dec.queue[0] = nil
			c.dec.queue = c.dec.queue[1:]
		}
		select {
		case c.incoming <- in:
		case <-c.closed:
			return
		}
		if in.err != nil {
			return
		}
	}
}

// Read implements [mcp.Connection].
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case in := <-c.incoming:
		return in.msg, in.err
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements [mcp.Connection]. An answer to a request of a batch
// waits for the batch's other answers, and goes out with them. Every
// message the SDK writes passes here: the secrets the process keeps are
// masked in it (redact.MaskBytes), whatever it is.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	data = redact.MaskBytes(data)
	resp, ok := msg.(*jsonrpc.Response)
	i, answer := id{}, false
	if ok {
		i, answer = fromRPC(resp.ID)
		if resp.Error != nil {
			data, _ = RealCode(data) // see realcode.go
		}
	}
	if !answer { // a request or a notification of the server's
		_, err = c.g.send(append(data, '\n'), nil, nil)
		return err
	}
	b, inBatch := c.dec.answered(i, data)
	switch {
	case !inBatch:
		_, err = c.g.send(append(data, '\n'), []id{i}, [][]byte{data})
	case b != nil:
		_, err = c.g.send(append(array(b.answers), '\n'), b.ids, b.answers)
	}
	return err
}

// Close implements [mcp.Connection]: it closes both ends of the stream, as
// the SDK's own connection closes its stream.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.closeErr = errors.Join(c.g.in.Close(), c.g.closeOut())
	})
	return c.closeErr
}

// SessionID implements [mcp.Connection]: a stream has no session id.
func (c *conn) SessionID() string { return "" }

// rpc is i as the SDK's id. The check let through only ids that a float64
// holds exactly, which is how the SDK reads numeric ids.
func (i id) rpc() jsonrpc.ID {
	var v jsonrpc.ID
	if i.isStr {
		v, _ = jsonrpc.MakeID(i.str)
	} else {
		v, _ = jsonrpc.MakeID(float64(i.num))
	}
	return v
}

// fromRPC is the SDK's id v as the guard's, when it is one.
func fromRPC(v jsonrpc.ID) (id, bool) {
	switch x := v.Raw().(type) {
	case int64:
		return id{num: x}, true
	case string:
		return id{str: x, isStr: true}, true
	}
	return id{}, false
}
