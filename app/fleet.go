package app

import (
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/metric"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/fleet/opener"
)

// redisPackage is the package whose Open a program sets
// Options.OpenRedis to for MCP_REDIS_URL to take effect.
const redisPackage = `github.com/seed417024ea/mcpcore/redis`

// errNoRedisOpener is the start-up error of a program given MCP_REDIS_URL
// that gave nothing to open it with.
var errNoRedisOpener = errors.New(`MCP_REDIS_URL is set, but this program gives nothing to open it with: ` +
	`set app.Options.OpenRedis to redis.Open of package ` + redisPackage + ` in its main package (or unset MCP_REDIS_URL)`)

// opened is what openShared opened; nil when nothing.
type opened struct{ shared *opener.Shared }

// openShared opens cfg.RedisURL with opts.OpenRedis when so lacks a Bus or
// a Limiter, and sets what it opened in so (its task store and catalog
// too, unless so has them), named for the server's start-up line.
func openShared(info mcpcore.Info, cfg Config, opts *Options, so *mcpcore.ServerOptions, mp metric.MeterProvider) (*opened, error) {
	if cfg.RedisURL == "" || (so.Bus != nil && so.Limiter != nil) {
		return nil, nil
	}
	if opts.OpenRedis == nil {
		return nil, badConfig(errNoRedisOpener)
	}
	sh, err := opts.OpenRedis(cfg.RedisURL, opener.Options{Server: info.Name, Logger: so.Logger, MeterProvider: mp})
	if err != nil {
		return nil, badConfig(fmt.Errorf("MCP_REDIS_URL: %w", err))
	}
	// The server names what it shares by the String of its Bus, else of
	// its Limiter.
	if so.Bus == nil && sh.Bus != nil {
		so.Bus = describedBus{sh.Bus, sh.Describe}
	}
	if so.Limiter == nil && sh.Limiter != nil {
		so.Limiter = describedLimiter{sh.Limiter, sh.Describe}
	}
	if so.Tasks == nil {
		so.Tasks = sh.Tasks
	}
	if so.Catalog == nil {
		so.Catalog = sh.Catalog
	}
	return &opened{sh}, nil
}

// close closes what openShared opened.
func (o *opened) close() error {
	if o == nil || o.shared.Close == nil {
		return nil
	}
	return o.shared.Close()
}

// describedBus and describedLimiter name what an opener opened, without
// credentials.
type (
	describedBus struct {
		fleet.Bus
		what string
	}
	describedLimiter struct {
		fleet.Limiter
		what string
	}
)

// String names the bus for the server's start-up line.
func (d describedBus) String() string { return d.what }

// String names the limiter for the server's start-up line.
func (d describedLimiter) String() string { return d.what }

// describeShared names the parts a server shares for the start-up line:
// by their String method (what openShared opened says where it is,
// without credentials), else as the program's own.
func describeShared(bus fleet.Bus, limiter fleet.Limiter) string {
	for _, part := range []any{bus, limiter} {
		if d, ok := part.(fmt.Stringer); ok {
			return d.String()
		}
	}
	if bus != nil || limiter != nil {
		return "the Bus and Limiter of ServerOptions"
	}
	return ""
}

// sharedLine is the part of the start-up line that names what is shared.
func (a *App) sharedLine() string {
	if a.sharing == "" {
		return "nothing shared with other replicas (no MCP_REDIS_URL)"
	}
	return "shared with other replicas: " + a.sharing
}
