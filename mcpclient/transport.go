package mcpclient

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// Transport wraps t so that a task a server answers a request with reaches
// the caller. The SDK decodes a tools/call answer into a
// [mcp.CallToolResult], which has no place for the fields of a
// CreateTaskResult ({"resultType":"task","taskId":…,"status":…}): on their
// way in, such an answer becomes a CallToolResult with empty content whose
// _meta holds the server's _meta and, under [TaskMetaKey], the
// CreateTaskResult itself (its _meta aside), which [TaskOf] reads. Any other
// message passes unchanged. The wrapping works over any transport and
// against any server that speaks the tasks extension.
//
// The connection also answers, itself, the requests [Call] makes to have
// the session's own handlers answer a task's questions (see [Call]): a
// tools/call whose params._meta holds the key "mcpcore/taskInput" never
// leaves the process. It goes through the client's sending middleware as a
// tools/call of the tool "mcpcore/taskInput".
//
// Connections of the SDK that take the session's state from the session
// (the Streamable HTTP client's, which starts its standalone SSE stream
// and sets Mcp-Protocol-Version from it) get it through an unexported
// hook, which a wrapper cannot pass on: over Streamable HTTP, use the
// wrapped transport for sessions of protocol 2026-07-28 and later, whose
// requests carry their version and which have no standalone stream.
func Transport(t mcp.Transport) mcp.Transport {
	return &taskTransport{inner: t}
}

type taskTransport struct {
	inner mcp.Transport
}

// Connect connects the wrapped transport and wraps its connection.
func (t *taskTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pumpCtx, stop := context.WithCancel(context.Background())
	return &taskConn{
		Connection: conn,
		pumpCtx:    pumpCtx,
		stopPump:   stop,
		local:      make(chan jsonrpc.Message, 1),
		reads:      make(chan readResult),
		done:       make(chan struct{}),
	}, nil
}

// A taskConn is a connection wrapped by [Transport]. A goroutine reads the
// wrapped connection, so that an answer made here reaches the session
// while a read of the server's messages is pending.
type taskConn struct {
	mcp.Connection
	pumpCtx  context.Context
	stopPump context.CancelFunc
	pump     sync.Once
	local    chan jsonrpc.Message // answers made here
	reads    chan readResult      // what the wrapped connection read
	done     chan struct{}        // closed by Close
	close    sync.Once
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// Read returns the next message: an answer made here, or the next one the
// wrapped connection read, with a CreateTaskResult kept as [Transport]
// says.
func (c *taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.pump.Do(func() { go c.readAll() })
	select {
	case msg := <-c.local:
		return msg, nil
	case r := <-c.reads:
		if resp, ok := r.msg.(*jsonrpc.Response); ok && r.err == nil {
			resp.Result = keepTask(resp.Result)
		}
		return r.msg, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, mcp.ErrConnectionClosed
	}
}

// readAll reads the wrapped connection until it fails or is closed. Its
// last error is handed to every later Read, as a connection's is.
func (c *taskConn) readAll() {
	for {
		msg, err := c.Connection.Read(c.pumpCtx)
		for {
			select {
			case c.reads <- readResult{msg, err}:
			case <-c.done:
				return
			}
			if err == nil {
				break
			}
		}
	}
}

// Write sends msg, but for a request [Call] makes to have the session
// answer a task's questions, which it answers itself.
func (c *taskConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" && req.IsCall() {
		if answer, ok := answerInputCall(req); ok {
			select {
			case c.local <- answer:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			case <-c.done:
				return mcp.ErrConnectionClosed
			}
		}
	}
	return c.Connection.Write(ctx, msg)
}

// Close closes the wrapped connection and stops reading it.
func (c *taskConn) Close() error {
	c.close.Do(func() {
		close(c.done)
		c.stopPump()
	})
	return c.Connection.Close()
}

// keepTask returns result, or when it is a CreateTaskResult, the
// CallToolResult [Transport] makes of it. It scans result once, and decodes
// it only when it is a task.
func keepTask(result json.RawMessage) json.RawMessage {
	rt := rpcguard.Member(result, "resultType")
	if rt == nil {
		return result
	}
	var resultType string
	if json.Unmarshal(rt, &resultType) != nil || resultType != "task" {
		return result
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(result, &members) != nil {
		return result
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := members["_meta"]; ok {
		// A _meta that is not an object is dropped, as the SDK would.
		_ = json.Unmarshal(raw, &meta)
		delete(members, "_meta")
	}
	task, err := json.Marshal(members)
	if err != nil {
		return result
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[TaskMetaKey] = task
	kept, err := json.Marshal(struct {
		Content []struct{}                 `json:"content"`
		Meta    map[string]json.RawMessage `json:"_meta"`
	}{[]struct{}{}, meta})
	if err != nil {
		return result
	}
	return kept
}
