package mcpcore

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
)

// MCP 2025-11-25's task utility lets a server tell the client that a
// task's status changed (notifications/tasks/status), so that it need not
// poll. The SDK sends only the notifications it knows; the connections of
// the server's own transports (the stdio guard's, the HTTP endpoint's)
// write any message, so the server keeps each session's connection and
// writes the notification there.

// legacyStatusMethod is the utility's notification of a task's status.
const legacyStatusMethod = "notifications/tasks/status"

// conns are the connections of the sessions the server connected to a
// transport of its own, by session, while they last.
type conns struct{ m sync.Map }

// recorder is a transport whose connection is kept once connected.
type recorder struct {
	mcp.Transport
	conn mcp.Connection
}

func (r *recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	r.conn = c
	return c, err
}

// connect connects a session of the server to t, one of the server's own
// transports, and keeps its connection until the session ends.
func (s *Server) connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	r := &recorder{Transport: t}
	ss, err := s.mcp.Connect(ctx, r, opts)
	if err != nil || r.conn == nil {
		return ss, err
	}
	s.conns.m.Store(ss, r.conn)
	go func() {
		_ = ss.Wait()
		s.conns.m.Delete(ss)
	}()
	return ss, nil
}

// legacyTaskStatus tells the client of a 2025-11-25 session that its task
// t changed status, best effort: over HTTP it goes down the session's GET
// stream when one is open; a stateless server has none.
func (s *Server) legacyTaskStatus(c *callState, t fleet.Task) {
	if c.version != legacyTasksVersion || c.ctx.session == nil {
		return
	}
	v, ok := s.conns.m.Load(c.ctx.session)
	if !ok {
		return
	}
	params, err := json.Marshal(legacyTaskOf(t))
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), taskStoreTimeout)
	defer cancel()
	_ = v.(mcp.Connection).Write(ctx, &jsonrpc.Request{Method: legacyStatusMethod, Params: params})
}
