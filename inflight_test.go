package mcpcore_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

// TestCallsInFlightAreBoundedServerWide checks MCP_MAX_CALLS_IN_FLIGHT over
// HTTP, in both session modes: with a bound of 3, three slow calls run (in
// stateful mode, over two sessions, each far below its own limit), the
// fourth is refused with RateLimited and data.limit, logged at notice as
// the client's doing, and a call is admitted again once one has finished.
func TestCallsInFlightAreBoundedServerWide(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"stateful", "stateless"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			started, release := make(chan struct{}, 8), make(chan struct{})
			slow := mcpcore.Tool[struct{}, said]{
				Name: "slow", Description: "Waits until the test lets it go.",
				Handler: func(ctx *mcpcore.Context, _ struct{}) (said, error) {
					started <- struct{}{}
					select {
					case <-release:
					case <-ctx.Done():
					}
					return said{Text: "done"}, nil
				},
			}
			srv, logs := newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{
				"MCP_MAX_CALLS_IN_FLIGHT": "3", "MCP_SESSION_MODE": mode})}, slow)
			endpoint := serveHTTP(t, srv)
			var clients []*mcp.ClientSession
			for range 2 {
				cs, err := dial(t, endpoint, "")
				if err != nil {
					t.Fatal(err)
				}
				clients = append(clients, cs)
			}
			a, b := clients[0], clients[1]
			running := []<-chan callResult{callAsync(a, "slow", nil), callAsync(a, "slow", nil), callAsync(b, "slow", nil)}
			for range running {
				receive(t, "a slow call to start", started)
			}

			const refused = `{"isError":true,
				"content":[{"type":"text","text":"Error: Too many calls in flight on this server: at most 3 run at once (MCP_MAX_CALLS_IN_FLIGHT). Wait for some of yours to finish, then retry."}],
				"structuredContent":{"error":{"code":-32003,"message":"Too many calls in flight on this server: at most 3 run at once (MCP_MAX_CALLS_IN_FLIGHT). Wait for some of yours to finish, then retry.",
					"data":{"limit":3}}}}`
			// A server without the bound would run it: it must not hang the test.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := b.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
			if err != nil {
				t.Fatal(err)
			}
			assertResult(t, res, refused)
			recs := logs.Failures(t, "slow")
			if len(recs) != 1 || recs[0]["level"] != "NOTICE" {
				t.Errorf("records = %v, want one at NOTICE", recs)
			}

			ended := mergeResults(running)
			release <- struct{}{}
			if r := receive(t, "a slow call to end", ended); r.err != nil || r.res.IsError {
				t.Fatalf("the call let go: %v %s", r.err, mustJSON(r.res))
			}
			again := callAsync(b, "slow", nil)
			receive(t, "the call after it to start", started)
			close(release)
			if r := receive(t, "the call after it", again); r.err != nil || r.res.IsError {
				t.Errorf("a call once one had finished: %v %s", r.err, mustJSON(r.res))
			}
			for range 2 {
				if r := receive(t, "the other slow calls to end", ended); r.err != nil || r.res.IsError {
					t.Errorf("a slow call: %v %s", r.err, mustJSON(r.res))
				}
			}
		})
	}
}

// mergeResults returns the first result of any of chs.
func mergeResults(chs []<-chan callResult) <-chan callResult {
	out := make(chan callResult, len(chs))
	for _, ch := range chs {
		go func() { out <- <-ch }()
	}
	return out
}
