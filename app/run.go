package app

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Run serves the server until ctx ends, the process receives SIGINT or
// SIGTERM, or the server's Shutdown is called, over the transport
// Config.Transport selects: stdio by default (mcpcore.Server.Serve with
// an mcp.StdioTransport), Streamable HTTP with [TransportHTTP] (the
// server's Handler, on Config.HTTPHost:Config.HTTPPort, default
// 127.0.0.1:3010). On the way out the server stops admitting calls and
// lets in-flight ones finish within its shutdown timeout, then cancels
// the rest, and ends as mcpcore.Server.Shutdown does; over HTTP, the
// http.Server is shut down after it. Then Run closes the app
// ([App.Close]). It returns the error that stopped serving (the HTTP
// listener's, say); Close's failures are logged.
func (a *App) Run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	var err error
	if a.listen.http {
		err = a.serveHTTP(ctx)
	} else {
		err = a.srv.Serve(ctx, &mcp.StdioTransport{})
	}
	stop()
	// Close after Shutdown (which serving ends with) has drained the
	// calls: their spans and metric points are flushed, and nothing
	// publishes on the bus any more.
	closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
	defer cancel()
	a.Close(closeCtx)
	return err
}

// closeTimeout bounds the flush of the telemetry as the app closes, so
// that the spans of calls cancelled at shutdown are not lost, and a
// collector that is away does not hold the process.
const closeTimeout = 5 * time.Second
