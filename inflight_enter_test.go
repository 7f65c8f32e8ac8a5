package mcpcore

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInflightEnterCountsOnceAndLeaveUndoes checks the one admission of a
// call among the calls in flight: a call over its session's limit is
// entered but counted nowhere; one over the server's is counted in its
// session only, until it leaves; leave undoes exactly what enter counted;
// and a draining server enters nothing.
func TestInflightEnterCountsOnceAndLeaveUndoes(t *testing.T) {
	f := newInflight()
	cancel := func(error) {}
	a, b, c := new(mcp.ServerSession), new(mcp.ServerSession), new(mcp.ServerSession)
	enter := func(ss *mcp.ServerSession, want error) uint64 {
		t.Helper()
		token, busy := f.enter(cancel, ss, 1, 2)
		if token == 0 || busy != want {
			t.Fatalf("enter: token %d, busy %v; want a token and %v", token, busy, want)
		}
		return token
	}
	a1 := enter(a, nil)
	f.leave(enter(a, errSessionBusy)) // refused: a's count stays 1
	enter(a, errSessionBusy)
	b1 := enter(b, nil)
	c1 := enter(c, errServerBusy) // counted in c's session, not the server's
	if f.perSession[c] != 1 || f.running != 2 {
		t.Fatalf("after a refusal by the server's bound: c's count %d, running %d; want 1, 2", f.perSession[c], f.running)
	}
	f.leave(c1)
	f.leave(a1)
	if _, ok := f.perSession[c]; ok || f.perSession[a] != 0 || f.running != 1 {
		t.Fatalf("after leaving: sessions %v, running %d; want b's only, 1", f.perSession, f.running)
	}
	enter(a, nil)
	f.leave(b1)
	f.leave(b1) // a second leave does nothing
	if f.running != 1 {
		t.Fatalf("running %d after a second leave; want 1", f.running)
	}
	ended, end := context.WithCancel(context.Background())
	end()
	f.drain(ended) // calls still run: it gives up at once
	if token, _ := f.enter(cancel, a, 1, 2); token != 0 {
		t.Fatalf("a draining server entered a call: token %d", token)
	}
}
