package rpcguard_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// A conn is a bare SDK server behind a guard, driven with raw lines.
type conn struct {
	feed   chan string   // what the client sends, written in order
	lines  chan string   // every line the server writes, in order
	ended  chan struct{} // closed when the server's session ends
	guard  *rpcguard.Guard
	closer func()
}

// release is closed by tests to let the "block" tool return.
type blocker chan struct{}

// startConn serves a bare mcp.Server, with one tool "block" that returns
// when release is closed, over a guarded pipe. raw, when set, skips the
// guard: the bare SDK on the same pipe.
func startConn(t testing.TB, maxLine int, release blocker, raw bool) *conn {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"},
		&mcp.ServerOptions{Logger: slog.New(slog.DiscardHandler)})
	mcp.AddTool(srv, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, struct{}, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &mcp.CallToolResult{}, struct{}{}, nil
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &conn{feed: make(chan string, 64), lines: make(chan string, 1024), ended: make(chan struct{})}
	go func() {
		for s := range c.feed {
			if _, err := io.WriteString(inW, s); err != nil {
				return
			}
		}
	}()
	var tr mcp.Transport = &mcp.IOTransport{Reader: inR, Writer: outW}
	if !raw {
		// The connection mcpcore serves stdio with: decoded messages.
		c.guard = rpcguard.New(inR, outW, maxLine)
		tr = c.guard.Transport()
	}
	ss, err := srv.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	go func() {
		ss.Wait()
		close(c.ended)
	}()
	go func() {
		defer close(c.lines)
		br := bufio.NewReader(outR)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			c.lines <- line[:len(line)-1]
		}
	}()
	var once sync.Once
	c.closer = func() {
		once.Do(func() {
			inW.Close()
			close(c.feed)
			ss.Close()
			outR.Close()
			<-c.ended
		})
	}
	t.Cleanup(c.closer)
	return c
}

// send writes raw bytes to the server, from a goroutine so that a test can
// read answers meanwhile.
func (c *conn) send(s string) { c.feed <- s }

// next returns the next line the server writes.
func (c *conn) next(t testing.TB) string {
	t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			t.Fatal("the server closed its output")
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no line from the server within 10s")
	}
	return ""
}

// quiet checks that the server writes nothing for a moment.
func (c *conn) quiet(t testing.TB) {
	t.Helper()
	select {
	case l := <-c.lines:
		t.Fatalf("unexpected line %s", l)
	case <-time.After(50 * time.Millisecond):
	}
}

func initialize(version string) string {
	return `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n"
}
