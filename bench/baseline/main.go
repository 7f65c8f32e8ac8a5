// Command baseline is the bare-SDK server that bench/load measures mcpcore
// against: the go-sdk's own server with the two tools the load calls, echo
// and fetch_articles, registered with the raw [mcp.Server.AddTool]. It does
// what a careful server written on the SDK alone would do, and no more: no
// schema inference, no input or output validation, no logs, no telemetry.
//
// Its tools answer with the same bytes as examples/articles:
//
//   - echo {"message": m} sends back m, as the text of its indented JSON
//     and as structuredContent {"message": m};
//   - fetch_articles {"pmids": []} fails as the example's no_match failure:
//     isError, the text "Error: None of 0 PMIDs returned data\n\nRecovery: …"
//     and structuredContent {"error": {"code": -32001, "message": …,
//     "data": {"reason": "no_match", "recovery": {"hint": …}}}};
//   - fetch_articles with PMIDs sends them back as {"articles": […]}.
//
// It reads the environment as mcpcore does: stdio by default;
// MCP_TRANSPORT_TYPE=http serves Streamable HTTP on
// MCP_HTTP_HOST:MCP_HTTP_PORT (default 127.0.0.1:3010) at /mcp, stateless
// with MCP_SESSION_MODE=stateless. Any other MCP_ variable is ignored.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := newServer()
	switch t := os.Getenv("MCP_TRANSPORT_TYPE"); t {
	case "", "stdio":
		err := srv.Run(ctx, &mcp.StdioTransport{})
		if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	case "http":
		return serveHTTP(ctx, srv)
	default:
		return fmt.Errorf("MCP_TRANSPORT_TYPE=%q: want stdio or http", t)
	}
}

// serveHTTP serves the SDK's Streamable HTTP handler at /mcp, as mcpcore
// does, until ctx ends.
func serveHTTP(ctx context.Context, srv *mcp.Server) error {
	host, port := os.Getenv("MCP_HTTP_HOST"), os.Getenv("MCP_HTTP_PORT")
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "3010"
	}
	var stateless bool
	switch m := os.Getenv("MCP_SESSION_MODE"); m {
	case "", "stateful":
	case "stateless":
		stateless = true
	default:
		return fmt.Errorf("MCP_SESSION_MODE=%q: want stateful or stateless", m)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: stateless}))
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	// The standalone SSE streams stay open; Close ends what Shutdown leaves.
	if err := hs.Shutdown(closeCtx); err != nil {
		hs.Close()
	}
	return nil
}

// newServer is the SDK server with the two tools, registered raw.
func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "baseline", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{
		Name:        "echo",
		Description: "Send back the message it is given.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
	}, echo)
	s.AddTool(&mcp.Tool{
		Name:        "fetch_articles",
		Description: "Fetch articles by PMID.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"pmids":{"type":"array","items":{"type":"string"}}},"required":["pmids"]}`),
	}, fetchArticles)
	return s
}

type echoArgs struct {
	Message string `json:"message"`
}

func echo(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in echoArgs
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return invalidArguments(err), nil
	}
	return structured(in)
}

type fetchArgs struct {
	PMIDs []string `json:"pmids"`
}

type fetchResult struct {
	Articles []string `json:"articles"`
}

// The no_match failure of examples/articles, as it goes on the wire.
const (
	codeNotFound    = -32001
	noMatchReason   = "no_match"
	noMatchRecovery = "Try pubmed_search_articles to discover valid PMIDs first."
)

// errorContent is the structuredContent of a failed call, its members in
// the order mcpcore writes them.
type errorContent struct {
	Error errorObject `json:"error"`
}

type errorObject struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Data    errorData `json:"data"`
}

type errorData struct {
	Reason   string   `json:"reason"`
	Recovery recovery `json:"recovery"`
}

type recovery struct {
	Hint string `json:"hint"`
}

func fetchArticles(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in fetchArgs
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return invalidArguments(err), nil
	}
	if len(in.PMIDs) == 0 {
		msg := fmt.Sprintf("None of %d PMIDs returned data", len(in.PMIDs))
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: "Error: " + msg + "\n\nRecovery: " + noMatchRecovery}},
			StructuredContent: errorContent{Error: errorObject{Code: codeNotFound, Message: msg,
				Data: errorData{Reason: noMatchReason, Recovery: recovery{Hint: noMatchRecovery}}}},
			IsError: true,
		}, nil
	}
	return structured(fetchResult{Articles: in.PMIDs})
}

// structured is a successful result: out as indented JSON text, as
// examples/articles writes it, and as structuredContent.
func structured(out any) (*mcp.CallToolResult, error) {
	text, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		StructuredContent: out,
	}, nil
}

// invalidArguments is the answer to arguments that do not decode; the load
// never sends any.
func invalidArguments(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: "Error: invalid arguments: " + err.Error()}},
		IsError: true,
	}
}
