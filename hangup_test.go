package mcpcore_test

// A client's hang-up cancels its own call and no other: the POSTs an HTTP
// endpoint serves are its server's, not the process's.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// waiting is a stateless server over HTTP whose tool "wait" runs until it
// is cancelled or released.
type waiting struct {
	srv                *mcpcore.Server
	logs               *wiretest.LogBuffer
	started, cancelled chan struct{}
	release            chan struct{}
}

func newWaiting(t *testing.T) *waiting {
	t.Helper()
	w := &waiting{started: make(chan struct{}, 1), cancelled: make(chan struct{}, 1), release: make(chan struct{})}
	wait := mcpcore.Tool[struct{}, said]{
		Name: "wait", Description: "Waits for its release or its cancellation.",
		Handler: func(ctx *mcpcore.Context, _ struct{}) (said, error) {
			w.started <- struct{}{}
			select {
			case <-w.release:
				return said{Text: "released"}, nil
			case <-ctx.Done():
				w.cancelled <- struct{}{}
				return said{}, ctx.Err()
			}
		},
	}
	w.srv, w.logs = newServer(t, &mcpcore.ServerOptions{Config: configOf(t, map[string]string{"MCP_SESSION_MODE": "stateless"})}, wait)
	return w
}

// call posts a call of "wait" to endpoint (2025-11-25, whose calls the SDK
// does not tie to their request) once its handler has started, and
// returns the hang-up and the answer's body, which comes once the call
// ends.
func (w *waiting) call(t *testing.T, endpoint string) (hangUp func(), answer <-chan string) {
	t.Helper()
	ctx, hangUp := context.WithCancel(context.Background())
	t.Cleanup(hangUp)
	req, _ := http.NewRequestWithContext(ctx, "POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`))
	req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {"2025-11-25"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {"wait"}}
	body := make(chan string, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			body <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body <- string(b)
	}()
	select {
	case <-w.started:
	case <-time.After(10 * time.Second):
		t.Fatalf("the call did not start: %s", w.logs)
	}
	return hangUp, body
}

// TestAHangUpEndsOnlyItsOwnCall: with two servers in one process, and a
// second endpoint of one of them, the client that hangs up cancels its
// call, and the other server's call, in flight at the same time, runs to
// its result.
func TestAHangUpEndsOnlyItsOwnCall(t *testing.T) {
	t.Parallel()
	a, b := newWaiting(t), newWaiting(t)
	serveHTTP(t, a.srv) // a's first endpoint; the call comes to its second
	hangUpA, _ := a.call(t, serveHTTP(t, a.srv))
	_, answerB := b.call(t, serveHTTP(t, b.srv))
	hangUpA()
	select {
	case <-a.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("server a's handler was not cancelled when its client hung up")
	}
	mcptest.WaitFor(t, "server a's record of the call", func() bool { return len(a.logs.Failures(t, "wait")) == 1 })
	if r := a.logs.Failures(t, "wait")[0]; r["code"] != float64(mcperr.CodeRequestCancelled) {
		t.Errorf("server a's record: %v", r)
	}
	close(b.release)
	var got string
	select {
	case got = <-answerB:
	case <-time.After(10 * time.Second):
		t.Fatal("server b's call did not answer once released")
	}
	var res struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent said `json:"structuredContent"`
		} `json:"result"`
	}
	// The answer is an event stream of one event, or a JSON body.
	data := got
	if _, event, ok := strings.Cut(got, "data: "); ok {
		data, _, _ = strings.Cut(event, "\n")
	}
	if err := json.Unmarshal([]byte(data), &res); err != nil || res.Result.IsError || res.Result.StructuredContent.Text != "released" {
		t.Errorf("server b's call, whose client stayed: %s", got)
	}
	select {
	case <-b.cancelled:
		t.Error("server b's handler was cancelled by server a's client hanging up")
	default:
	}
}
