// Package fleethook is where package github.com/seed417024ea/mcpcore/redis
// plugs in when a program imports it, so that MCP_REDIS_URL takes effect
// without the root package linking a Redis client into every server.
package fleethook

import (
	"log/slog"

	"go.opentelemetry.io/otel/metric"

	"github.com/seed417024ea/mcpcore/fleet"
)

// Options is what the server tells the opener.
type Options struct {
	// URL is MCP_REDIS_URL's value.
	URL string
	// Server is the server's name (Info.Name): the replicas of one server
	// share one namespace of keys and channels, and other servers on the
	// same Redis stay apart.
	Server string
	Logger *slog.Logger
	// MeterProvider receives the metrics of the shared parts.
	MeterProvider metric.MeterProvider
}

// Shared is what an opener gives the server.
type Shared struct {
	Bus     fleet.Bus
	Limiter fleet.Limiter
	// Describe names the shared parts for the start-up line, without
	// credentials, such as "redis 10.0.0.5:6379/0 (notifications, rate limits)".
	Describe string
	// Close stops the bus and the limiter's background work and closes
	// the connection; the server calls it once, as it stops.
	Close func() error
}

// Redis opens the shared parts at a Redis URL. It is nil unless package
// redis is linked in.
var Redis func(Options) (*Shared, error)
