package rpcguard

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// TestHoldEOF checks that the end of the input reaches the transport only
// once hold returned, and that an answer written while it holds reaches the
// stream.
func TestHoldEOF(t *testing.T) {
	t.Parallel()
	var out wiretest.LogBuffer
	g := New(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"a"}`+"\n"), &out, 0)
	g.st.initSeen = true
	held, release := make(chan struct{}), make(chan struct{})
	c := connect(t, g)
	g.HoldEOF(func() {
		close(held)
		<-release
		c.write(`{"jsonrpc":"2.0","id":1,"result":{}}`)
		g.Wait(context.Background())
	})
	c.read(1)
	ended := make(chan error, 1)
	go func() {
		_, err := c.next()
		ended <- err
	}()
	<-held
	select {
	case err := <-ended:
		t.Fatalf("the input ended (%v) while hold ran", err)
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	select {
	case err := <-ended:
		if err != io.EOF {
			t.Errorf("after hold: %v, want io.EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the end of the input was not passed on once hold returned")
	}
	if want := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"; out.String() != want {
		t.Errorf("the stream got %q, want %q", out.String(), want)
	}
}

// TestCut checks that a cut stream takes no more writes, not even the
// answer of a request still pending, that Wait no longer waits for that
// answer, and that both ends of the stream are closed.
func TestCut(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	g := New(inR, outW, 0)
	g.st.initSeen = true
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"a"}`+"\n")
	c := connect(t, g)
	c.read(1)
	g.Cut()
	if err := c.write(`{"jsonrpc":"2.0","id":1,"result":{}}`); !errors.Is(err, ErrCut) {
		t.Errorf("Write after Cut = %v; want ErrCut", err)
	}
	g.Wait(context.Background()) // returns: the pending request is never answered
	if _, err := io.WriteString(inW, "x"); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("the input is still open: %v", err)
	}
	if _, err := outR.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the output is still open: %v", err)
	}
}
