package httpserve

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestIdleStreamsStayOpen checks that a stream silent for longer than the
// write deadline still delivers what comes after.
func TestIdleStreamsStayOpen(t *testing.T) {
	t.Parallel()
	stream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		time.Sleep(600 * time.Millisecond)
		fmt.Fprint(w, "data: two\n\n")
	})
	h, err := New(Options{MCP: stream, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 10, BodyTimeout: time.Second, WriteTimeout: 150 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			got = append(got, line)
		}
	}
	if strings.Join(got, ",") != "data: one,data: two" {
		t.Errorf("stream: %q (%v)", got, sc.Err())
	}
}

// TestClientThatDoesNotReadIsCut checks that a response the client stops
// reading fails its writes once the deadline passes, instead of holding
// the handler for good.
func TestClientThatDoesNotReadIsCut(t *testing.T) {
	t.Parallel()
	failed := make(chan error, 1)
	flood := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 1<<20))
		for {
			if _, err := w.Write(chunk); err != nil {
				failed <- err
				return
			}
		}
	})
	h, err := New(Options{MCP: flood, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 10, BodyTimeout: time.Second, WriteTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "GET /mcp HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case <-failed:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler still writes to a client that stopped reading")
	}
}
