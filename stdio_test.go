package mcpcore_test

// Wire tests of the stdio stream: raw bytes in, raw bytes out, through
// Serve over an mcp.IOTransport, as Serve over an mcp.StdioTransport
// serves stdin and stdout.

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

// A stream is one raw newline-delimited JSON-RPC session with a server.
type stream struct {
	in    *io.PipeWriter
	lines chan string // what the server writes, line by line
	ended chan error  // the result of serving, once it ends
}

// openStream runs serve over a pair of pipes.
func openStream(t *testing.T, serve func(context.Context, mcp.Transport) error) *stream {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stream{in: inW, lines: make(chan string, 64), ended: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { s.ended <- serve(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	go func() {
		defer close(s.lines)
		br := bufio.NewReaderSize(outR, 1<<16)
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				return
			}
			s.lines <- strings.TrimSuffix(l, "\n")
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
	})
	return s
}

// guarded serves a server of ours with one tool, render.
func guarded(t *testing.T) func(context.Context, mcp.Transport) error {
	srv, _ := newServer(t, nil, renderTool)
	return srv.Serve
}

// bare serves a bare SDK server: the baseline.
func bare() func(context.Context, mcp.Transport) error {
	return func(ctx context.Context, t mcp.Transport) error {
		srv := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ServerOptions{Logger: slog.New(slog.DiscardHandler)})
		ss, err := srv.Connect(ctx, t, nil)
		if err != nil {
			return err
		}
		return ss.Wait()
	}
}

// send writes raw bytes to the server.
func (s *stream) send(b string) { io.WriteString(s.in, b) }

// next returns the next line the server writes.
func (s *stream) next(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			t.Fatal("the server closed the stream")
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no line from the server within 10s")
	}
	return ""
}

func initLine(version string) string {
	return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n"
}

// handshake initializes the session at version.
func (s *stream) handshake(t *testing.T, version string) {
	t.Helper()
	s.send(initLine(version))
	if l := s.next(t); !strings.Contains(l, `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize answered %s", l)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
}

// stillServes checks that a tool call after whatever came before is
// answered.
func (s *stream) stillServes(t *testing.T) {
	t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"render","arguments":{}}}` + "\n")
	if l := s.next(t); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":"after","result":{`) {
		t.Fatalf("the call after it was answered %s", l)
	}
}

func rpcErr(id string, code, msg string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":` + code + `,"message":"` + msg + `"}}`
}

// TestStdioMalformedLines sends each malformed line of issue 6, then a
// valid call: the line gets its JSON-RPC 2.0 error, and the server goes on
// serving.
func TestStdioMalformedLines(t *testing.T) {
	t.Parallel()
	const (
		parse    = "-32700"
		invalid  = "-32600"
		idNumber = `Invalid Request: a numeric \"id\" must be a whole number within 64 bits that a float64 holds exactly`
		idType   = `Invalid Request: \"id\" must be a string, a whole number or null`
	)
	deep := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "}\n"
	for _, tc := range []struct{ name, line, want string }{
		{"not JSON", "not json\n", rpcErr("null", parse, "Parse error: the line is not valid JSON")},
		{"trailing garbage", `{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n", rpcErr("2", parse, "Parse error: the line has data after its JSON value")},
		{"nesting 1001", deep, rpcErr("3", parse, "Parse error: the JSON is nested deeper than 1000 levels")},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}` + "\n", rpcErr("1", invalid, `Invalid Request: \"jsonrpc\" must be \"2.0\"`)},
		{"empty batch", "[]\n", rpcErr("null", invalid, "Invalid Request: an empty batch")},
		{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n", rpcErr("null", invalid, idType)},
		{"id array", `{"jsonrpc":"2.0","id":[],"method":"ping"}` + "\n", rpcErr("null", invalid, idType)},
		{"id bool", `{"jsonrpc":"2.0","id":true,"method":"ping"}` + "\n", rpcErr("null", invalid, idType)},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n", rpcErr("null", invalid, idNumber)},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n", rpcErr("null", invalid, idNumber)},
		{"id 30 digits", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}` + "\n", rpcErr("null", invalid, idNumber)},
		{"id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}` + "\n", rpcErr("null", invalid, `Invalid Request: the \"id\" member is given twice`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := openStream(t, guarded(t))
			s.handshake(t, "2025-06-18")
			s.send(tc.line)
			if got := s.next(t); got != tc.want {
				t.Errorf("answer\n got %s\nwant %s", got, tc.want)
			}
			s.stillServes(t)
		})
	}
}

// TestStdioLineOverLimit sends a line one byte over the 16 MiB limit,
// produced and read as a stream: it is answered under the id its head
// shows, and the server goes on serving.
func TestStdioLineOverLimit(t *testing.T) {
	t.Parallel()
	s := openStream(t, guarded(t))
	s.handshake(t, "2025-06-18")
	head := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"render","arguments":{"case":"`
	tail := `"}}}`
	pad := 16<<20 + 1 - len(head) - len(tail)
	go func() {
		io.WriteString(s.in, head)
		chunk := strings.Repeat("a", 64<<10)
		for ; pad > len(chunk); pad -= len(chunk) {
			io.WriteString(s.in, chunk)
		}
		io.WriteString(s.in, chunk[:pad]+tail+"\n")
	}()
	if got, want := s.next(t), rpcErr("4", "-32700", "Parse error: the line is longer than 16777216 bytes"); got != want {
		t.Errorf("answer\n got %s\nwant %s", got, want)
	}
	s.stillServes(t)
}

// batchSession runs initialize at version, then a batch, then a ping, and
// returns every line the server wrote until both the batch and the ping are
// answered, sorted, or until the end.
func batchSession(t *testing.T, serve func(context.Context, mcp.Transport) error, version string) []string {
	s := openStream(t, serve)
	s.send(initLine(version))
	s.next(t) // the servers differ in name and capabilities
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	s.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"two","method":"nope"},{"jsonrpc":"2.0","id":3,"method":"ping"}]` + "\n")
	s.send(`{"jsonrpc":"2.0","id":"last","method":"ping"}` + "\n")
	// The batch's answer and the ping's may come in either order: the
	// batch is answered when its slowest call is.
	var out []string
	last, batch := false, false
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				return append(out, "(end)")
			}
			out = append(out, l)
			last = last || strings.Contains(l, `"id":"last"`)
			batch = batch || strings.HasPrefix(l, "[")
			if last && batch {
				slices.Sort(out)
				return out
			}
		case <-s.ended:
			return append(out, "(end)")
		case <-time.After(10 * time.Second):
			t.Fatalf("the session hangs after %q", out)
		}
	}
}

// TestStdioBatchesAsTheBareSDK runs the same session against a bare SDK
// server and against ours: initialize, a batch, a ping. Before 2025-06-18
// both answer the batch alike. From 2025-06-18 on, both refuse it: the
// bare SDK by ending the connection, ours by answering each call -32600
// and serving on.
func TestStdioBatchesAsTheBareSDK(t *testing.T) {
	t.Parallel()
	t.Run("2025-03-26", func(t *testing.T) {
		t.Parallel()
		b, g := batchSession(t, bare(), "2025-03-26"), batchSession(t, guarded(t), "2025-03-26")
		if strings.Join(b, "\n") != strings.Join(g, "\n") {
			t.Errorf("bare SDK:\n%s\nours:\n%s", strings.Join(b, "\n"), strings.Join(g, "\n"))
		}
		if want := `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"two","error":{"code":-32601,"message":"method not found: \"nope\""}},{"jsonrpc":"2.0","id":3,"result":{}}]`; len(g) == 0 || g[0] != want {
			t.Errorf("batch answer %q, want %s", g, want)
		}
	})
	t.Run("2025-06-18", func(t *testing.T) {
		t.Parallel()
		if b := batchSession(t, bare(), "2025-06-18"); len(b) != 1 || b[0] != "(end)" {
			t.Errorf("bare SDK wrote %q, want no answer and the end of the connection", b)
		}
		const refusal = "Invalid Request: JSON-RPC batching is not supported in protocol version 2025-06-18 and later"
		want := []string{
			"[" + rpcErr("1", "-32600", refusal) + "," + rpcErr(`"two"`, "-32600", refusal) + "," + rpcErr("3", "-32600", refusal) + "]",
			`{"jsonrpc":"2.0","id":"last","result":{}}`,
		}
		if g := batchSession(t, guarded(t), "2025-06-18"); strings.Join(g, "\n") != strings.Join(want, "\n") {
			t.Errorf("ours:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
		}
	})
}

// TestStdioProtocolVersionReachesTheSDK checks that both sides of a stdio
// session know the negotiated version once the SDK hands the guard's
// decoded messages to the session: the SDK's session, which reads it for
// every later request, and the guard, which applies the batching rule the
// SDK's own connection would (TestStdioBatchesAsTheBareSDK shows the rule).
func TestStdioProtocolVersionReachesTheSDK(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-03-26", "2025-06-18", "2025-11-25"} {
		srv, _ := newServer(t, nil, renderTool)
		s := openStream(t, srv.Serve)
		s.handshake(t, version)
		s.stillServes(t)
		n := 0
		for ss := range srv.MCPServer().Sessions() {
			n++
			state := reflect.ValueOf(ss).Elem().FieldByName("state")
			if v := state.FieldByName("NegotiatedProtocolVersion").String(); v != version {
				t.Errorf("the SDK's session has protocol version %q, want %s", v, version)
			}
		}
		if n != 1 {
			t.Errorf("%d sessions, want 1", n)
		}
		s.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n")
		got := s.next(t)
		want := `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]`
		if version >= "2025-06-18" {
			want = "the batch refused"
			if strings.HasPrefix(got, "[") && strings.Count(got, "-32600") == 2 {
				got = want
			}
		}
		if got != want {
			t.Errorf("%s: a batch after initialize got %s, want %s", version, got, want)
		}
		s.stillServes(t)
	}
}

// TestStdioCancelledIDIsNotReused: the SDK still answers a cancelled request
// and holds its id until then. A new request with that id in between must be
// refused, never answered with the cancelled request's result.
func TestStdioCancelledIDIsNotReused(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	slow := mcpcore.Tool[caseInput, okOutput]{
		Name: "slow",
		Handler: func(ctx *mcpcore.Context, _ caseInput) (okOutput, error) {
			close(started)
			<-ctx.Done()
			<-release // the answer is written after the id is reused
			return okOutput{}, ctx.Err()
		},
	}
	srv, _ := newServer(t, nil, slow, renderTool)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-06-18")
	s.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{}}}` + "\n")
	// Cancelled before its handler starts, the SDK answers a request at
	// once; the sequence that matters is a cancellation of a running one.
	<-started
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}` + "\n")
	s.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"render","arguments":{}}}` + "\n")
	if l := s.next(t); l != rpcErr("null", "-32600", `Invalid Request: the \"id\" is in use by a pending request`) {
		t.Errorf("the reused id was answered %s", l)
	}
	close(release)
	// The cancelled request's own answer, which its client drops.
	if l := s.next(t); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":7,"result":{`) || !strings.Contains(l, `-32011`) {
		t.Errorf("the cancelled request was answered %s", l)
	}
	// Once it is answered, the id is free again.
	s.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"render","arguments":{}}}` + "\n")
	if l := s.next(t); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":7,"result":{"content"`) || strings.Contains(l, "isError") {
		t.Errorf("the freed id was answered %s", l)
	}
	s.stillServes(t)
}

// TestStdioAnswersWhatWasSentBeforeEOF: input that ends right after its
// requests (printf … | server) still gets every answer; a handler that never
// returns holds the end only as long as a shutdown would.
func TestStdioAnswersWhatWasSentBeforeEOF(t *testing.T) {
	t.Parallel()
	slow := mcpcore.Tool[caseInput, okOutput]{
		Name: "slow",
		Handler: func(ctx *mcpcore.Context, in caseInput) (okOutput, error) {
			if in.Case == "stuck" {
				<-ctx.Done()
				return okOutput{}, ctx.Err()
			}
			time.Sleep(50 * time.Millisecond)
			return okOutput{OK: true}, nil
		},
	}
	srv, _ := newServer(t, &mcpcore.ServerOptions{ShutdownTimeout: 200 * time.Millisecond}, slow)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-06-18")
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}}` + "\n")
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"case":"stuck"}}}` + "\n")
	s.in.Close()
	if l := s.next(t); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":1,"result":{"content"`) {
		t.Errorf("the call sent before EOF was answered %s", l)
	}
	select {
	case err := <-s.ended:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a stuck handler held the end of the input for good")
	}
}
