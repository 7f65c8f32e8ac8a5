// Command mcpgo is the peer written on the other Go MCP library users pick,
// github.com/mark3labs/mcp-go: the tools echo and fetch_articles of
// bench/baseline, with the same input schemas, answering with the same
// bytes, and with mcp-go's input validation on (WithInputSchemaValidation),
// since a framework user would not go without it.
//
// It is a module of its own, so that mcp-go never enters the dependencies
// of mcpcore's module: bench/run.sh builds it from this directory. For the
// same reason it keeps its own copy of the wire types that bench/baseline
// and bench/typed share in bench/internal/peer. It reads
// the environment as bench/baseline does: stdio by default;
// MCP_TRANSPORT_TYPE=http serves Streamable HTTP on
// MCP_HTTP_HOST:MCP_HTTP_PORT (default 127.0.0.1:3010) at /mcp, stateless
// with MCP_SESSION_MODE=stateless.
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

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo:", err)
		os.Exit(1)
	}
}

func run() error {
	srv := newServer()
	switch t := os.Getenv("MCP_TRANSPORT_TYPE"); t {
	case "", "stdio":
		err := server.ServeStdio(srv)
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	case "http":
		return serveHTTP(srv)
	default:
		return fmt.Errorf("MCP_TRANSPORT_TYPE=%q: want stdio or http", t)
	}
}

func serveHTTP(srv *server.MCPServer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
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
	mux.Handle("/mcp", server.NewStreamableHTTPServer(srv, server.WithStateLess(stateless)))
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
	if err := hs.Shutdown(closeCtx); err != nil {
		hs.Close()
	}
	return nil
}

func newServer() *server.MCPServer {
	s := server.NewMCPServer("mcpgo", "1.0.0", server.WithToolCapabilities(false), server.WithInputSchemaValidation())
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Send back the message it is given."),
		mcp.WithRawInputSchema(json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`))), echo)
	s.AddTool(mcp.NewTool("fetch_articles", mcp.WithDescription("Fetch articles by PMID."),
		mcp.WithRawInputSchema(json.RawMessage(`{"type":"object","properties":{"pmids":{"type":"array","items":{"type":"string"}}},"required":["pmids"]}`))), fetchArticles)
	return s
}

type echoArgs struct {
	Message string `json:"message"`
}

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in echoArgs
	if err := req.BindArguments(&in); err != nil {
		return mcp.NewToolResultError("invalid arguments: " + err.Error()), nil
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

func fetchArticles(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in fetchArgs
	if err := req.BindArguments(&in); err != nil {
		return mcp.NewToolResultError("invalid arguments: " + err.Error()), nil
	}
	if len(in.PMIDs) == 0 {
		msg := fmt.Sprintf("None of %d PMIDs returned data", len(in.PMIDs))
		res := mcp.NewToolResultStructured(errorContent{Error: errorObject{Code: codeNotFound, Message: msg,
			Data: errorData{Reason: noMatchReason, Recovery: recovery{Hint: noMatchRecovery}}}},
			"Error: "+msg+"\n\nRecovery: "+noMatchRecovery)
		res.IsError = true
		return res, nil
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
	return mcp.NewToolResultStructured(out, string(text)), nil
}
