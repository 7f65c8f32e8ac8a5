package mcpcore_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcpotel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The benchmarks below run one tools/call round trip over in-memory
// transports, through mcpcore and, side by side, through the bare SDK's typed
// mcp.AddTool (which also infers schemas and validates input), so that the
// framework's cost reads as a ratio:
//
//	go test -run '^$' -bench ToolCall -benchmem -count 10 . | benchstat -col /server -

type benchInput struct {
	Message string `json:"message" jsonschema:"the text to send back"`
	Fail    bool   `json:"fail,omitempty" jsonschema:"fail instead"`
}

type benchOutput struct {
	Message string `json:"message" jsonschema:"the text that was sent"`
}

var benchFailure = mcpcore.Failure{
	Reason:   "asked_to_fail",
	Code:     mcperr.CodeNotFound,
	When:     "The caller asked the tool to fail",
	Recovery: "Call the tool again with fail set to false.",
}

var benchTool = mcpcore.Tool[benchInput, benchOutput]{
	Name:        "echo",
	Description: "Send back the message.",
	Errors:      []mcpcore.Failure{benchFailure},
	Handler: func(ctx *mcpcore.Context, in benchInput) (benchOutput, error) {
		if in.Fail {
			return benchOutput{}, ctx.Fail(benchFailure, "", ctx.RecoveryFor(benchFailure))
		}
		return benchOutput{Message: in.Message}, nil
	},
}

func sdkServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Send back the message."},
		func(_ context.Context, _ *mcp.CallToolRequest, in benchInput) (*mcp.CallToolResult, benchOutput, error) {
			if in.Fail {
				return nil, benchOutput{}, mcperr.NotFound("The caller asked the tool to fail")
			}
			return nil, benchOutput{Message: in.Message}, nil
		})
	return s
}

// bareServer is the SDK with the raw Server.AddTool: no schema inference,
// no validation, no logs; the floor the framework is measured against
// (issue 13), answering what mcpcore answers.
func bareServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Send back the message.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in benchInput
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			if in.Fail {
				msg := "The caller asked the tool to fail"
				hint := benchFailure.Recovery
				return &mcp.CallToolResult{
					IsError: true,
					Content: []mcp.Content{&mcp.TextContent{Text: "Error: " + msg + "\n\nRecovery: " + hint}},
					StructuredContent: map[string]any{"error": map[string]any{"code": -32001, "message": msg,
						"data": map[string]any{"reason": benchFailure.Reason, "recovery": map[string]any{"hint": hint}}}},
				}, nil
			}
			out, _ := json.Marshal(benchOutput{Message: in.Message})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}, StructuredContent: json.RawMessage(out)}, nil
		})
	return s
}

func mcpcoreServer(b *testing.B) *mcp.Server {
	return newBenchServer(b).MCPServer()
}

// mcpcoreOTel is mcpcore recording its spans and metrics with the
// OpenTelemetry SDK (spans dropped as they end, metrics kept by a reader
// never collected): what telemetry costs a call when it is on.
func mcpcoreOTel(b *testing.B) *mcp.Server {
	obs := otelObserver(b, mcpotel.Options{
		TracerProvider: sdktrace.NewTracerProvider(),
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader())),
	})
	return newBenchServerWith(b, &mcpcore.ServerOptions{Observer: obs}).MCPServer()
}

func newBenchServer(b testing.TB) *mcpcore.Server {
	return newBenchServerWith(b, &mcpcore.ServerOptions{})
}

// newBenchServerWith is the benchmarks' server on opts, logging nowhere.
func newBenchServerWith(b testing.TB, opts *mcpcore.ServerOptions) *mcpcore.Server {
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "bench"}, opts, benchTool)
	if err != nil {
		b.Fatal(err)
	}
	return srv
}

func BenchmarkToolCall(b *testing.B) {
	for _, server := range []struct {
		name string
		make func(*testing.B) *mcp.Server
	}{
		{"bare", func(*testing.B) *mcp.Server { return bareServer() }},
		{"sdk", func(*testing.B) *mcp.Server { return sdkServer() }},
		{"mcpcore", mcpcoreServer},
		{"mcpcore-otel", mcpcoreOTel},
	} {
		for _, outcome := range []struct {
			name string
			args map[string]any
		}{
			{"success", map[string]any{"message": "hello"}},
			{"failure", map[string]any{"message": "hello", "fail": true}},
		} {
			b.Run("server="+server.name+"/outcome="+outcome.name, func(b *testing.B) {
				ctx := context.Background()
				ct, st := mcp.NewInMemoryTransports()
				if _, err := server.make(b).Connect(ctx, st, nil); err != nil {
					b.Fatal(err)
				}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer cs.Close()
				loopEcho(b, cs, outcome.args, outcome.name == "failure")
			})
		}
	}
}

// BenchmarkStdioCall is one tools/call round trip over a newline-delimited
// stream (pipes, as stdio), served by Serve with the framing guard
// (server=mcpcore) and, side by side, by the same server connected to the
// stream directly (server=mcpcore-unguarded): the guard's cost per call.
func BenchmarkStdioCall(b *testing.B) {
	for _, guarded := range []bool{true, false} {
		name := "mcpcore"
		if !guarded {
			name = "mcpcore-unguarded"
		}
		b.Run("server="+name, func(b *testing.B) {
			loopEcho(b, stdioClient(b, newBenchServer(b), guarded), map[string]any{"message": "hello"}, false)
		})
	}
}

// stdioClient connects a client to srv over a newline-delimited stream
// (pipes, as stdio): served by Serve with the framing guard, or,
// unguarded, by the server connected to the stream directly.
func stdioClient(b *testing.B, srv *mcpcore.Server, guarded bool) *mcp.ClientSession {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	st := &mcp.IOTransport{Reader: toServer, Writer: fromServer}
	if guarded {
		go srv.Serve(ctx, st)
	} else if _, err := srv.MCPServer().Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// BenchmarkHTTPCall is one tools/call round trip over Streamable HTTP on a
// local server, in each session mode (mode=stateful: one session;
// mode=stateless: none, MCP_SESSION_MODE=stateless), through mcpcore's
// whole HTTP surface (server=mcpcore) and through the SDK's own handler in
// front of the bare server (server=bare), for allocations per call:
//
//	go test -run '^$' -bench HTTPCall -benchmem -count 10 . | benchstat -col /server -
func BenchmarkHTTPCall(b *testing.B) {
	for _, mode := range []string{"stateful", "stateless"} {
		stateless := mode == "stateless"
		for _, server := range []string{"bare", "mcpcore"} {
			for _, outcome := range []struct {
				name string
				args map[string]any
			}{
				{"success", map[string]any{"message": "hello"}},
				{"failure", map[string]any{"message": "hello", "fail": true}},
			} {
				b.Run("mode="+mode+"/server="+server+"/outcome="+outcome.name, func(b *testing.B) {
					var h http.Handler
					if server == "bare" {
						bare := bareServer()
						h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return bare },
							&mcp.StreamableHTTPOptions{Stateless: stateless})
					} else {
						h = newBenchServerWith(b, &mcpcore.ServerOptions{Config: mcpcore.Config{Stateless: stateless}}).Handler()
					}
					loopEcho(b, httpClient(b, h, stateless), outcome.args, outcome.name == "failure")
				})
			}
		}
	}
}

// httpClient connects a client to h, served on loopback, over Streamable
// HTTP, and checks that h serves in the session mode asked of it: a
// session id from a stateful server, none from a stateless one.
func httpClient(b *testing.B, h http.Handler, stateless bool) *mcp.ClientSession {
	hs := httptest.NewServer(h)
	b.Cleanup(hs.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	if (cs.ID() == "") != stateless {
		b.Fatalf("stateless %v, but the server answered with the session id %q", stateless, cs.ID())
	}
	return cs
}

// loopEcho is the measured loop of the call benchmarks: echo with args,
// which must fail exactly when wantError says so.
func loopEcho(b *testing.B, cs *mcp.ClientSession, args map[string]any, wantError bool) {
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "echo", Arguments: args}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError != wantError {
			b.Fatalf("CallTool: %v %v", res, err)
		}
	}
}
