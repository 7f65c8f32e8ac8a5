package mcpcore

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pendingCalls tracks the requests read from a session's transport whose
// responses have not been written yet. A call leaves the in-flight count when
// its handler returns, a moment before the SDK writes its result; closing the
// session in that moment would drop the result (the SDK refuses to write once
// Close has begun), so shutdown also waits for this set to empty.
type pendingCalls struct {
	mu      sync.Mutex
	ids     map[jsonrpc.ID]bool
	changed chan struct{} // closed and replaced whenever ids shrinks
}

func (p *pendingCalls) add(id jsonrpc.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ids == nil {
		p.ids = make(map[jsonrpc.ID]bool)
		p.changed = make(chan struct{})
	}
	p.ids[id] = true
}

func (p *pendingCalls) done(id jsonrpc.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ids[id] {
		return
	}
	delete(p.ids, id)
	close(p.changed)
	p.changed = make(chan struct{})
}

// wait blocks until no response is pending or ctx ends.
func (p *pendingCalls) wait(ctx context.Context) {
	for {
		p.mu.Lock()
		n, changed := len(p.ids), p.changed
		p.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

// trackedTransport records the calls of its connection in a pendingCalls.
type trackedTransport struct {
	mcp.Transport
	pending *pendingCalls
}

// Connect implements mcp.Transport.
func (t trackedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return trackedConn{conn, t.pending}, nil
}

type trackedConn struct {
	mcp.Connection
	pending *pendingCalls
}

// Read implements mcp.Connection, noting each call it reads.
func (c trackedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		switch {
		case req.IsCall():
			c.pending.add(req.ID)
		case req.Method == "notifications/cancelled":
			// The SDK sends no response to a cancelled request.
			var params struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(req.Params, &params) == nil {
				if id, err := jsonrpc.MakeID(params.RequestID); err == nil {
					c.pending.done(id)
				}
			}
		}
	}
	return msg, err
}

// Write implements mcp.Connection, noting each response it writes.
func (c trackedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.pending.done(resp.ID)
	}
	return err
}
