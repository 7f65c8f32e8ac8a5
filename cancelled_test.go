package mcpcore_test

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
)

// holdRootsNotifications makes the server hold each
// notifications/roots/list_changed until the test sends on release; held
// says when a hold has begun. The SDK handles a session's notifications
// one after another, and the requests that come after one wait in its
// queue: a request cancelled there is cancelled before its handler
// starts, which the SDK answers by itself, outside every middleware.
func holdRootsNotifications(srv *mcpcore.Server) (held <-chan struct{}, release chan<- struct{}) {
	h, r := make(chan struct{}, 16), make(chan struct{})
	srv.MCPServer().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/roots/list_changed" {
				h <- struct{}{}
				<-r
			}
			return next(ctx, method, req)
		}
	})
	return h, r
}

// requestCancelled is how a request cancelled before its handler starts
// is answered: RequestCancelled, with the message of one cancelled while
// its handler runs.
func requestCancelled(id int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"error":{"code":-32011,"message":"The request was cancelled."}}`
}

// cancelQueued runs attempt, which queues a call with id behind a held
// notification and cancels it, until the cancellation reaches the call
// while it waits: the SDK cancels on a goroutine of its own, which the
// test can only give time to run. It returns the call's answer.
func cancelQueued(t *testing.T, attempt func(id int) string) string {
	t.Helper()
	for id := 1; id <= 5; id++ {
		got := attempt(id)
		if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"result":`) {
			return got
		}
		t.Logf("attempt %d: the call ran before its cancellation came: %.80s", id, got)
	}
	t.Fatal("no call was cancelled while it waited in the queue in 5 attempts")
	return ""
}

// TestCancelledBeforeStartOverStdio: a request cancelled while it waits in
// the session's queue is answered RequestCancelled (-32011), never with
// code 0 (the SDK's own answer is {"code":0,"message":"context
// canceled"}), and the session goes on serving.
func TestCancelledBeforeStartOverStdio(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, nil, renderTool)
	held, release := holdRootsNotifications(srv)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-06-18")
	var id int
	got := cancelQueued(t, func(n int) string {
		id = n
		s.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}` + "\n")
		<-held
		s.send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(n) + `,"method":"tools/call","params":{"name":"render","arguments":{}}}` + "\n")
		s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + strconv.Itoa(n) + `,"reason":"changed my mind"}}` + "\n")
		// The ping is read once the cancellation was: the SDK has set out
		// to cancel the call by then.
		s.send(`{"jsonrpc":"2.0","id":"ping","method":"ping"}` + "\n")
		time.Sleep(50 * time.Millisecond)
		release <- struct{}{}
		answer := s.next(t)
		if l := s.next(t); l != `{"jsonrpc":"2.0","id":"ping","result":{}}` {
			t.Fatalf("the ping after the call was answered %s", l)
		}
		return answer
	})
	if want := requestCancelled(id); got != want {
		t.Errorf("the cancelled request was answered\n%s\nwant\n%s", got, want)
	}
	s.stillServes(t)
}

// TestCancelledBeforeStartOverHTTP: the same over a stateful HTTP session,
// where the cancelled request's POST still waits for its answer.
func TestCancelledBeforeStartOverHTTP(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, nil, renderTool)
	held, release := holdRootsNotifications(srv)
	h := httptest.NewServer(srv.Handler())
	defer h.Close()
	c := rawClient{t: t, endpoint: h.URL + mcpcore.HTTPPath}
	var session string
	post := func(body string) string {
		_, header, b := c.do("POST", session, body, nil)
		if id := header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		return answerOf(header, b)
	}
	post(strings.TrimSpace(initLine("2025-11-25")))
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var id int
	got := cancelQueued(t, func(n int) string {
		id = n
		post(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
		<-held
		answer := make(chan string, 1)
		go func() {
			answer <- post(`{"jsonrpc":"2.0","id":` + strconv.Itoa(n) + `,"method":"tools/call","params":{"name":"render","arguments":{}}}`)
		}()
		time.Sleep(100 * time.Millisecond) // for the call's POST to reach the session's queue
		post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + strconv.Itoa(n) + `}}`)
		time.Sleep(50 * time.Millisecond)
		release <- struct{}{}
		select {
		case a := <-answer:
			return a
		case <-time.After(10 * time.Second):
			t.Fatal("the cancelled request's POST got no answer")
		}
		return ""
	})
	if want := requestCancelled(id); got != want {
		t.Errorf("the cancelled request was answered\n%s\nwant\n%s", got, want)
	}
	if got := post(`{"jsonrpc":"2.0","id":"after","method":"ping"}`); got != `{"jsonrpc":"2.0","id":"after","result":{}}` {
		t.Errorf("a ping after it was answered %s", got)
	}
}
