package mcpcore_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

// A program that mounts the server's Handler in an http.Server of its own
// shuts the MCP server down first, then the HTTP server: the calls in
// flight drain and are answered, the sessions and their GET streams end,
// and http.Server.Shutdown is left nothing to wait for.
func ExampleServer_Shutdown() {
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "shop", Version: "1.0.0"}, &mcpcore.ServerOptions{
		Logger: slog.New(slog.DiscardHandler),
	}, orderItem)
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/", srv.Handler())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	httpSrv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go httpSrv.Serve(ln)

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example-client"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + mcpcore.HTTPPath}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "order_item", Arguments: map[string]any{"item": "kettle"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("order:", res.StructuredContent)

	// On SIGTERM, say: at most ten seconds for the calls in flight.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fmt.Println("srv.Shutdown:", srv.Shutdown(ctx))
	if err := httpSrv.Shutdown(ctx); err != nil {
		httpSrv.Close() // a handler that ignored its cancellation
	}
	fmt.Println("httpSrv.Shutdown: done")
	// Output:
	// order: map[orderId:o-1]
	// srv.Shutdown: <nil>
	// httpSrv.Shutdown: done
}
