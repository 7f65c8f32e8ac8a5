package app

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/serving"
)

// serveHTTP serves the server's Handler on a.listen.addr until ctx ends or
// the server's Shutdown is called, then shuts down gracefully: the server
// first, as Shutdown does (within the server's shutdown timeout), and the
// http.Server after it. It returns the listener's error, if serving
// stopped for that; nil otherwise.
func (a *App) serveHTTP(ctx context.Context) error {
	h := a.srv.Handler().(*serving.Handler)
	shutdown := func() {
		ctx, cancel := context.WithTimeout(context.Background(), h.ShutdownTimeout)
		defer cancel()
		_ = a.srv.Shutdown(ctx)
	}
	ln, err := net.Listen("tcp", a.listen.addr)
	if err != nil {
		shutdown()
		return err
	}
	// Idle keep-alive connections close after a while. The body's read and
	// each write of a response have their own deadlines (the handler's),
	// so that streams open by design are not cut.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	a.logStart(h, ln.Addr())
	select {
	case err = <-served:
	case <-ctx.Done():
	case <-h.Stopping:
	}
	// In the order mcpcore.Server.Shutdown documents for a Handler mounted
	// by hand: the calls drain and are answered on their open responses,
	// the sessions and their GET streams end, and then the HTTP server has
	// little left to wait for.
	shutdown()
	// The response of a handler that ignores its cancellation would hold
	// Shutdown forever: give it a moment, then close.
	closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if srv.Shutdown(closeCtx) != nil {
		srv.Close()
	}
	return err
}

// logStart logs the start-up line of a server over HTTP, and warns of a
// stateless server that signs requestState with a key of its own.
func (a *App) logStart(h *serving.Handler, addr net.Addr) {
	log := a.srv.Logger()
	mode := "stateful sessions"
	if a.cfg.Stateless {
		mode = "stateless"
	}
	log.Info(fmt.Sprintf("mcpcore: serving %s over Streamable HTTP (%s): %s; %s. Connect an MCP client to http://%s%s",
		h.Name, mode, h.Inventory, a.sharedLine(), addr, mcpcore.HTTPPath))
	if a.cfg.Stateless && len(a.cfg.StateKeys) == 0 {
		// Nothing can tell a lone process from one of several replicas.
		log.Warn("mcpcore: stateless, and no MCP_STATE_KEYS: this process signs requestState with a random key of its own, so behind a load balancer a multi-round call answered by another replica is refused; give every replica the same MCP_STATE_KEYS")
	}
}
