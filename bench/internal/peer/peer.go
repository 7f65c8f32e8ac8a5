// Package peer serves a go-sdk server as bench/load expects the servers it
// measures to be served: stdio by default; MCP_TRANSPORT_TYPE=http serves
// Streamable HTTP on MCP_HTTP_HOST:MCP_HTTP_PORT (default 127.0.0.1:3010)
// at /mcp, stateless with MCP_SESSION_MODE=stateless. Any other MCP_
// variable is ignored.
package peer

import (
	"context"
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

// Main serves srv until it is interrupted, and exits with a message naming
// the command when serving fails.
func Main(name string, srv *mcp.Server) {
	if err := run(srv); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

func run(srv *mcp.Server) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
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
