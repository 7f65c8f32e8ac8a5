// Package serving carries what a program that listens for a server's HTTP
// surface needs of the server besides the handler itself, from package
// mcpcore to package app, without widening the server's public API: the
// words of the start-up line, the signal that Shutdown began, and the
// server's shutdown timeout.
package serving

import (
	"net/http"
	"time"
)

// Handler is the http.Handler that mcpcore.Server.Handler returns.
type Handler struct {
	http.Handler
	// Name and Inventory are the server's words of the start-up line:
	// `"articles" 1.0.0` and `6 tools, 1 resource, 1 prompt`.
	Name, Inventory string
	// Stopping is closed when the server's Shutdown begins.
	Stopping <-chan struct{}
	// ShutdownTimeout is how long the server's calls may drain as the
	// program stops (ServerOptions.ShutdownTimeout, or its default).
	ShutdownTimeout time.Duration
}
