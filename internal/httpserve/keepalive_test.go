package httpserve

import (
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
