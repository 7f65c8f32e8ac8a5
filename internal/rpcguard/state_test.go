package rpcguard

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// sdk is the SDK's side of a guard's connection, for the tests of this
// package: it reads the messages the guard passes on and writes answers.
type sdk struct {
	t *testing.T
	c mcp.Connection
}

func connect(t *testing.T, g *Guard) *sdk {
	t.Helper()
	c, err := g.Transport().Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &sdk{t, c}
}

// read returns the next n messages the SDK gets, encoded as the SDK
// encodes them.
func (s *sdk) read(n int) []string {
	s.t.Helper()
	var out []string
	for range n {
		msg, err := s.next()
		if err != nil {
			s.t.Fatalf("after %q: %v", out, err)
		}
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			s.t.Fatal(err)
		}
		out = append(out, string(data))
	}
	return out
}

// next reads one message, waiting 10 s at most.
func (s *sdk) next() (jsonrpc.Message, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.c.Read(ctx)
}

// write sends the SDK's message, given as its JSON.
func (s *sdk) write(msg string) error {
	s.t.Helper()
	m, err := jsonrpc.DecodeMessage([]byte(msg))
	if err != nil {
		s.t.Fatalf("%s: %v", msg, err)
	}
	return s.c.Write(context.Background(), m)
}

const initReq = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`

func TestBatchWaitsForInitialize(t *testing.T) {
	t.Parallel()
	var out wiretest.LogBuffer
	g := New(strings.NewReader(initReq+"\n"+`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"), &out, 0)
	connect(t, g).read(2) // initialize, then ping 2: the batch is refused in between
	want := `[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: a batch must wait for the answer to initialize"}}]` + "\n"
	if got := out.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestVersionFromInitialize checks that the guard learns the negotiated
// version from the initialize answer, and only from a successful one.
// (Initialize is never in a batch: the guard refuses it there.)
func TestVersionFromInitialize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, answer, want string }{
		{"success", `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"protocolVersion":"2025-06-18"}}`, "2025-06-18"},
		{"error", `{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"no"}}`, ""},
		{"other id", `{"jsonrpc":"2.0","id":9,"result":{"protocolVersion":"2025-06-18"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New(strings.NewReader(initReq+"\n"), io.Discard, 0)
			c := connect(t, g)
			c.read(1)
			c.write(tc.answer)
			if g.st.version != tc.want {
				t.Errorf("version %q, want %q", g.st.version, tc.want)
			}
		})
	}
}

// TestWaitForAnswers checks that a request is pending until its answer is
// written, even when it was cancelled (the SDK answers it all the same), and
// that Wait ends when the stream closes.
func TestWaitForAnswers(t *testing.T) {
	t.Parallel()
	in := `{"jsonrpc":"2.0","id":1,"method":"a"}` + "\n" +
		`{"jsonrpc":"2.0","id":"two","method":"b"}` + "\n" +
		`[{"jsonrpc":"2.0","id":3,"method":"c"},{"jsonrpc":"2.0","id":4,"method":"d"}]` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"two"}}` + "\n"
	g := New(strings.NewReader(in), io.Discard, 0)
	g.st.initSeen = true // a session initialized before these calls
	c := connect(t, g)
	c.read(5) // the batch's two requests come one by one
	waited := make(chan struct{})
	go func() {
		g.Wait(context.Background())
		close(waited)
	}()
	pending := func(want int) {
		t.Helper()
		g.st.mu.Lock()
		defer g.st.mu.Unlock()
		if len(g.st.pending) != want {
			t.Fatalf("%d pending, want %d", len(g.st.pending), want)
		}
	}
	pending(4) // "two" was cancelled, and is still answered
	c.write(`{"jsonrpc":"2.0","id":"two","result":{"isError":true}}`)
	pending(3)
	c.write(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	pending(2)
	c.write(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3}}`)
	pending(2)
	select {
	case <-waited:
		t.Fatal("Wait returned with requests pending")
	case <-time.After(20 * time.Millisecond):
	}
	c.write(`{"jsonrpc":"2.0","id":3,"result":{}}`)
	pending(2) // 3 and 4 came in a batch: their answers go out together
	c.write(`{"jsonrpc":"2.0","id":4,"error":{"code":1,"message":"m"}}`)
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return once every answer was written")
	}

	g = New(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"a"}`+"\n"), io.Discard, 0)
	g.st.initSeen = true
	c = connect(t, g)
	c.read(1)
	c.c.Close()
	g.Wait(context.Background()) // returns: nothing can be answered any more
}

// TestLongLineHeldBounded checks that a line over the limit is answered
// with the id of its head, and that the guard holds no more of it than the
// limit.
func TestLongLineHeldBounded(t *testing.T) {
	t.Parallel()
	const limit = 1 << 10
	head := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"pad":"`
	body := io.MultiReader(strings.NewReader(head), io.LimitReader(repeat('a'), 8<<20),
		strings.NewReader(`"}}`+"\n"+`{"jsonrpc":"2.0","id":6,"method":"ping"}`+"\n"))
	var out wiretest.LogBuffer
	g := New(body, &out, limit)
	c := connect(t, g)
	got := c.read(1)
	if got[0] != `{"jsonrpc":"2.0","id":6,"method":"ping"}` {
		t.Errorf("passed on %q", got[0])
	}
	if _, err := c.next(); err != io.EOF { // the reading is over: g.in is still
		t.Fatalf("after the last line: %v", err)
	}
	if want := `{"jsonrpc":"2.0","id":5,"error":{"code":-32700,"message":"Parse error: the line is longer than 1024 bytes"}}` + "\n"; out.String() != want {
		t.Errorf("answer %s, want %s", out.String(), want)
	}
	if c := cap(g.in.line); c > 4*limit {
		t.Errorf("line buffer grew to %d bytes for a limit of %d", c, limit)
	}
}

// TestLineLimitBoundary checks a line of exactly the limit and one byte
// more.
func TestLineLimitBoundary(t *testing.T) {
	t.Parallel()
	line := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	g := New(strings.NewReader(line+"\n"+line+" \n"), io.Discard, len(line))
	c := connect(t, g)
	if got := c.read(1); got[0] != line {
		t.Errorf("passed on %q", got[0])
	}
	if msg, err := c.next(); err != io.EOF {
		t.Errorf("the longer line was passed on: %v, %v", msg, err)
	}
}

type repeatReader byte

func repeat(b byte) io.Reader { return repeatReader(b) }

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestCallsBeforeInitialize checks that a call needing a session is
// refused with -32600 until initialize is passed on, and that ping and the
// self-standing requests of 2026-07-28 pass.
func TestCallsBeforeInitialize(t *testing.T) {
	t.Parallel()
	var out wiretest.LogBuffer
	g := New(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		initReq+"\n"+
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`+"\n"), &out, 0)
	lines := connect(t, g).read(5)
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized: send initialize first (over HTTP, then send this request with the Mcp-Session-Id header its answer returned)"}}` + "\n"
	if got := out.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !strings.Contains(lines[len(lines)-1], `"id":4`) {
		t.Errorf("a call after initialize was not passed on: %q", lines)
	}
}

// TestBatchRules checks that initialize is refused inside a batch, and that
// a batch before initialize gets -32600 for its calls that need a session,
// on a stream and in an HTTP body.
func TestBatchRules(t *testing.T) {
	t.Parallel()
	var out wiretest.LogBuffer
	g := New(strings.NewReader(`[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}},{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`+"\n"), &out, 0)
	lines := connect(t, g).read(1)
	want := `[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: initialize must be sent alone, not in a batch"}},` +
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized: send initialize first (over HTTP, then send this request with the Mcp-Session-Id header its answer returned)"}}]` + "\n"
	if got := out.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !strings.Contains(lines[0], `"ping"`) || strings.Contains(lines[0], "tools/list") {
		t.Errorf("passed on: %q", lines)
	}

	if got := string(Check([]byte(`[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}]`))); !strings.Contains(got, "initialize must be sent alone") {
		t.Errorf("Check of a batched initialize: %s", got)
	}
	got := string(BeforeInitialize([]byte(` [{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`)))
	if !strings.HasPrefix(got, `[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,`) || !strings.Contains(got, `"id":2,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized`) {
		t.Errorf("BeforeInitialize of a batch: %s", got)
	}
	if got := BeforeInitialize([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)); got != nil {
		t.Errorf("BeforeInitialize of a batch of pings: %s", got)
	}
}
