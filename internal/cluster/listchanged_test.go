package cluster

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// checkListChangedOncePerStream (TestCluster's "list_changed once per
// stream") opens a listen stream (toolsListChanged) on replicas 1 and 2 of
// the conformance server, calls its hook test_trigger_tool_change on
// replica 3 twice (so the tool it switches is back as it was), and counts
// the tools list_changed each stream hears: the change reaches the other
// replicas through Redis, and each stream hears it once.
func checkListChangedOncePerStream(t *testing.T, f *fleet, sum *summary) {
	streams := []*listChangedStream{listenForTools(t, f.replicaURL(0, "/mcp")), listenForTools(t, f.replicaURL(1, "/mcp"))}
	r3 := connect(t, f.replicaURL(2, "/mcp"), "2026-07-28", nil)
	for change := 1; change <= 2; change++ {
		res, err := r3.CallTool(ctxFor(t, 5*time.Second), &mcp.CallToolParams{Name: "test_trigger_tool_change", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("test_trigger_tool_change on replica 3: %v %+v", err, res)
		}
		begin := time.Now()
		ok := false
		for time.Since(begin) < 2*time.Second && !ok {
			ok = streams[0].count() >= change && streams[1].count() >= change
			time.Sleep(5 * time.Millisecond)
		}
		took := time.Since(begin)
		time.Sleep(1500 * time.Millisecond) // room for a duplicate to show
		ok = ok && streams[0].count() == change && streams[1].count() == change
		sum.add(ok, "tools list change on replica 3, listen streams on 1 and 2", took,
			"change %d: heard %d and %d in all (want %d each, within 2 s)", change, streams[0].count(), streams[1].count(), change)
		if !ok {
			t.Errorf("after change %d the listen streams heard %d and %d tools list_changed, want %d each", change, streams[0].count(), streams[1].count(), change)
		}
	}
}

// A listChangedStream is a client's subscriptions/listen stream on one
// replica, counting the tools list_changed it hears.
type listChangedStream struct {
	mu    sync.Mutex
	heard int
}

func (s *listChangedStream) count() int { s.mu.Lock(); defer s.mu.Unlock(); return s.heard }

// listenForTools connects to a replica directly (stateless, 2026-07-28):
// given a ToolListChangedHandler, the SDK's client opens a listen stream
// for toolsListChanged as it connects. It returns once the server
// acknowledged the stream.
func listenForTools(t *testing.T, url string) *listChangedStream {
	t.Helper()
	s := &listChangedStream{}
	acked := make(chan struct{})
	var once sync.Once
	client := mcp.NewClient(&mcp.Implementation{Name: "cluster", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			s.mu.Lock()
			s.heard++
			s.mu.Unlock()
		},
	})
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/subscriptions/acknowledged" {
				once.Do(func() { close(acked) })
			}
			return next(ctx, method, req)
		}
	})
	cs, err := client.Connect(ctxFor(t, 10*time.Second), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	select {
	case <-acked:
	case <-time.After(10 * time.Second):
		t.Fatal("the listen stream was not acknowledged")
	}
	return s
}
