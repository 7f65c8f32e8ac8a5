// Package opener is how package app opens, at a URL, what a server shares
// with the other replicas of its fleet (MCP_REDIS_URL): the [Func] a
// program gives app.Options.OpenRedis, such as redis.Open of package
// github.com/seed417024ea/mcpcore/redis. It is apart from package fleet,
// whose Bus and Limiter the root package uses, so that the root links
// none of OpenTelemetry: the options carry a meter provider.
package opener

import (
	"log/slog"

	"go.opentelemetry.io/otel/metric"

	"github.com/seed417024ea/mcpcore/fleet"
)

// A Func opens, at a URL, the [fleet.Bus] and [fleet.Limiter] a server
// shares with the other replicas of its fleet: package app calls it as it
// starts with the URL of its configuration (MCP_REDIS_URL), when it was
// given one and no Bus or Limiter of the program's own. Open of package
// github.com/seed417024ea/mcpcore/redis (a module of its own) is one, for
// redis:// and rediss:// URLs.
type Func func(url string, o Options) (*Shared, error)

// Options are what package app tells a [Func].
type Options struct {
	// Server is the server's name: the replicas of one server share one
	// namespace of keys and channels, and other servers on the same store
	// stay apart.
	Server string
	// Logger receives what the shared parts log; nil is slog.Default().
	Logger *slog.Logger
	// MeterProvider receives the metrics of the shared parts; nil records
	// none.
	MeterProvider metric.MeterProvider
}

// Shared is what a [Func] opened.
type Shared struct {
	Bus     fleet.Bus
	Limiter fleet.Limiter
	// Tasks is the task store the replicas share, so that any of them
	// answers for a task another runs; package app gives it to the server
	// (ServerOptions.Tasks) unless the program gave its own. Nil leaves
	// the server its store in its own process.
	Tasks fleet.TaskStore
	// Catalog keeps which definitions the fleet has switched off (see
	// Server.SetEnabled); package app gives it to the server
	// (ServerOptions.Catalog) unless the program gave its own. Nil leaves
	// the server its state in its own process.
	Catalog fleet.Catalog
	// Describe names the shared parts for the server's start-up line,
	// without credentials, such as "redis 10.0.0.5:6379/0 (notifications,
	// rate limits, tasks)".
	Describe string
	// Close stops the bus, the limiter and the task store's background
	// work and closes
	// the connection; package app calls it once, after the server stopped.
	Close func() error
}
