package httpserve

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestQuietStreamsGetComments: an event stream quiet for longer than the
// keep-alive period is sent comment lines between its events, which stay
// whole; a response that is not a stream gets none, and nothing is written
// once the handler has returned; with keep-alives off, a stream gets none.
func TestQuietStreamsGetComments(t *testing.T) {
	t.Parallel()
	const every = 20 * time.Millisecond
	stream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for i := range 2 {
			io.WriteString(w, "event: message\ndata: {\"n\":"+string(rune('0'+i))+"}\n\n")
			http.NewResponseController(w).Flush()
			time.Sleep(5 * every)
		}
	})
	plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{")
		time.Sleep(5 * every)
		io.WriteString(w, "}")
	})
	for name, tc := range map[string]struct {
		h        http.Handler
		every    time.Duration
		comments bool
	}{"stream": {stream, every, true}, "plain": {plain, every, false}, "stream, keep-alives off": {stream, -1, false}} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(answerThrough(WriteTimeout, tc.every)(tc.h))
			defer srv.Close()
			res, err := http.Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			got := string(body)
			n := strings.Count(got, ": keep-alive\n\n")
			switch {
			case tc.comments && n < 2:
				t.Errorf("%d comments in %q, want one per quiet %v", n, got, every)
			case !tc.comments && n > 0:
				t.Errorf("a response that is not a stream got comments: %q", got)
			}
			// The events are whole: the comments come only between them.
			if tc.comments && (!strings.Contains(got, "event: message\ndata: {\"n\":0}\n\n") || !strings.Contains(got, "event: message\ndata: {\"n\":1}\n\n")) {
				t.Errorf("an event was split: %q", got)
			}
		})
	}
}

// quietPOST is a handler that answers a POST as the SDK does: it sets the
// answer's headers, hands the call on (e.Bind), waits for release
// and then writes the answer: an event with 200, or, with status set, a
// body of its own with that status, as the SDK answers some errors from
// protocol 2026-07-28.
func quietPOST(e *Endpoints, contentType string, status int, release <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache, no-transform")
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Mcp-Session-Id", "S1")
		e.Bind(context.Background(), r.Header)
		<-release
		const answer = `{"jsonrpc":"2.0","id":1,"result":{}}`
		switch {
		case status != 0:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`)
		case contentType == "text/event-stream":
			io.WriteString(w, "event: message\ndata: "+answer+"\n\n")
		default:
			io.WriteString(w, answer)
		}
	})
}

// postQuietly sends a POST to h, behind the endpoint's writer and the tie
// of POSTs to their calls (an endpoint of e), and returns the answer as soon as its status
// line comes, with a reader of its lines.
func postQuietly(t *testing.T, e *Endpoints, h http.Handler, every time.Duration) (*http.Response, *bufio.Scanner) {
	t.Helper()
	srv := httptest.NewServer(answerThrough(WriteTimeout, every)(e.add().tie(h)))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("no status line: %v", err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res, bufio.NewScanner(res.Body)
}

// TestAQuietPOSTAnswerIsKeptAlive: the answer to a POST that the handler
// answers as an event stream, quiet while its call runs, gets its status
// line, the handler's headers (the session id of an initialize among
// them) and comments before the handler writes; the event follows whole.
// A status the handler writes after the status line went out (an error of
// its own) comes down the stream as an event.
func TestAQuietPOSTAnswerIsKeptAlive(t *testing.T) {
	t.Parallel()
	for name, status := range map[string]int{"event": 0, "an error with a status of its own": http.StatusBadRequest} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			var e Endpoints
			res, lines := postQuietly(t, &e, quietPOST(&e, "text/event-stream", status, release), 20*time.Millisecond)
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" ||
				res.Header.Get("Mcp-Session-Id") != "S1" || res.Header.Get("Cache-Control") != "no-cache, no-transform" {
				t.Fatalf("HTTP %d %v; want 200 and the handler's headers", res.StatusCode, res.Header)
			}
			for comments := 0; comments < 2; {
				if !lines.Scan() {
					t.Fatalf("the answer ended early: %v", lines.Err())
				}
				if line := lines.Text(); line == ": keep-alive" {
					comments++
				} else if line != "" {
					t.Fatalf("%q before the release", line)
				}
			}
			close(release)
			var rest []string
			for lines.Scan() {
				if l := lines.Text(); l != ": keep-alive" && l != "" {
					rest = append(rest, l)
				}
			}
			want := `data: {"jsonrpc":"2.0","id":1,"result":{}}`
			if status != 0 {
				want = `data: {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`
			}
			if len(rest) != 2 || rest[0] != "event: message" || rest[1] != want {
				t.Errorf("after the comments: %q, want the event %q", rest, want)
			}
		})
	}
}

// TestAJSONAnswerGetsNoComments: an answer the handler makes
// application/json (the SDK's JSONResponse) cannot carry comments: its
// status line waits for the body, which comes whole.
func TestAJSONAnswerGetsNoComments(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	time.AfterFunc(200*time.Millisecond, func() { close(release) })
	var e Endpoints
	res, lines := postQuietly(t, &e, quietPOST(&e, "application/json", 0, release), 10*time.Millisecond)
	var body []string
	for lines.Scan() {
		body = append(body, lines.Text())
	}
	if res.Header.Get("Content-Type") != "application/json" || len(body) != 1 || body[0] != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("%v %q, want the JSON answer alone", res.Header, body)
	}
}
