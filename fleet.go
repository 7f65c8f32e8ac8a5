package mcpcore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A RateLimit is a quota of calls for each caller (the token's subject;
// every caller without a token shares one): at most Calls in any window of
// Per, all of them at once if need be. Set it on a [Tool], [Resource] or
// [Prompt], or for every definition without one with Config.RateLimit
// (MCP_RATE_LIMIT). A call over its quota fails with RateLimited (-32003),
// data.retryAfter saying in how many seconds one would be admitted.
//
// With MCP_REDIS_URL (and ServerOptions.OpenRedis set to Open of package
// github.com/seed417024ea/mcpcore/redis) the quota is the whole fleet's,
// counted in Redis; without it, each process counts its own.
type RateLimit = fleet.Limit

// redisPackage is the package whose Open a program sets
// ServerOptions.OpenRedis to for MCP_REDIS_URL to take effect.
const redisPackage = `github.com/seed417024ea/mcpcore/redis`

// errNoRedisOpener is the start-up error of a server given MCP_REDIS_URL
// by a program that gave it nothing to open it with.
var errNoRedisOpener = errors.New(`MCP_REDIS_URL is set, but this program gives the server nothing to open it with: ` +
	`set ServerOptions.OpenRedis to redis.Open of package ` + redisPackage + ` in its main package (or unset MCP_REDIS_URL)`)

// shared is what the server shares with the other replicas of its fleet.
type shared struct {
	bus     fleet.Bus
	limiter fleet.Limiter
	// describe names the parts for the start-up line; close ends those
	// the server opened itself (from MCP_REDIS_URL).
	describe string
	close    func() error
	// stopListening ends the delivery of the others' events.
	stopListening func()
	// limiterFailed logs once that a limiter of the program's own could
	// not decide.
	limiterFailed sync.Once
}

// openShared opens what the server shares: the options' Bus and Limiter,
// else the parts of MCP_REDIS_URL, else a local limiter and no bus.
func (s *Server) openShared(opts *ServerOptions) error {
	sh := &shared{bus: opts.Bus, limiter: opts.Limiter}
	if url := s.cfg.RedisURL; url != "" && (sh.bus == nil || sh.limiter == nil) {
		if opts.OpenRedis == nil {
			return errNoRedisOpener
		}
		r, err := opts.OpenRedis(url, fleet.OpenOptions{Server: s.info.Name, Logger: s.logger, MeterProvider: s.telemetry.MeterProvider()})
		if err != nil {
			return fmt.Errorf("MCP_REDIS_URL: %w", err)
		}
		sh.describe, sh.close = r.Describe, r.Close
		if sh.bus == nil {
			sh.bus = r.Bus
		}
		if sh.limiter == nil {
			sh.limiter = r.Limiter
		}
	}
	if sh.describe == "" && (sh.bus != nil || opts.Limiter != nil) {
		sh.describe = "the Bus and Limiter of ServerOptions"
	}
	if sh.limiter == nil {
		sh.limiter = fleet.NewLocal()
	}
	if sh.bus != nil {
		sh.stopListening = sh.bus.Listen(s.deliver)
	}
	s.shared = sh
	return nil
}

// closeShared stops the delivery of events and closes what openShared
// opened; Shutdown calls it.
func (s *Server) closeShared() {
	sh := s.shared
	if sh == nil {
		return
	}
	if sh.stopListening != nil {
		sh.stopListening()
	}
	if sh.close != nil {
		if err := sh.close(); err != nil {
			s.logger.Warn("mcpcore: closing the shared parts of the fleet failed", "error", err)
		}
	}
}

// sharedLine is the part of the start-up line that names what is shared.
func (s *Server) sharedLine() string {
	if s.shared == nil || s.shared.describe == "" {
		return "nothing shared with other replicas (no MCP_REDIS_URL)"
	}
	return "shared with other replicas: " + s.shared.describe
}

// publish hands an event the server delivered to its own subscribers to
// the bus, for the subscribers of the other replicas.
func (s *Server) publish(e fleet.Event) {
	if s.shared != nil && s.shared.bus != nil {
		s.shared.bus.Publish(e)
	}
}

// deliver tells this replica's subscribers of an event another raised. A
// URI that no resource could have (see uriFault) is dropped before any
// template is matched against it, and logged, collapsed: no replica
// publishes one (NotifyResourceUpdated refuses it), so it was forged, by
// whatever can write to the bus.
func (s *Server) deliver(e fleet.Event) {
	switch e.Method {
	case fleet.ResourceUpdated:
		if why := uriFault(e.URI); why != "" {
			s.droppedEvent(e, why)
			return
		}
		if s.subscribable(e.URI) == nil {
			s.notifyLocal(s.background, e.URI)
		}
	default:
		// List-changed events come with definitions added at run time
		// (ROADMAP 5): this server's lists never change.
	}
}

// droppedEvent logs an event from the bus that was dropped, and why. The
// record holds nothing of the URI but why it was refused, and its repeats
// are collapsed: a flood of forged events writes a few records and their
// counts.
func (s *Server) droppedEvent(e fleet.Event, why string) {
	const msg = "mcpcore: dropped an event from the bus: its URI is none a resource could have"
	attrs := []slog.Attr{slog.String("method", e.Method), slog.String("why", why)}
	if s.repeats.Admit("bus event", slog.LevelWarn, msg, attrs) {
		s.logger.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
	}
}

// rateLimitOf is the quota of a definition: its own, else the server's.
func (s *Server) rateLimitOf(kind, name string, own RateLimit) (RateLimit, error) {
	if err := own.Check(); err != nil {
		return RateLimit{}, fmt.Errorf("%s %q: RateLimit: %w", kind, name, err)
	}
	if own.IsZero() {
		return s.cfg.RateLimit, nil
	}
	return own, nil
}

// checkRateLimit counts a call against its definition's quota for its
// caller, and refuses it, with RateLimited, beyond.
func (s *Server) checkRateLimit(c *callState) error {
	if c.limit.IsZero() {
		return nil
	}
	caller := "anonymous"
	if c.ctx.token != nil {
		caller = "sub:" + c.ctx.token.UserID
	}
	key := c.kind + ":" + c.name + ":" + caller
	d, err := s.shared.limiter.Allow(c.ctx, key, c.limit)
	if err != nil {
		s.shared.limiterFailed.Do(func() {
			s.logger.Warn("mcpcore: the rate limiter could not decide; calls are admitted while it fails (logged once)", "error", err)
		})
		return nil
	}
	if d.Allowed {
		return nil
	}
	wait := int64(math.Ceil(d.RetryAfter.Seconds()))
	return mcperr.RateLimited(fmt.Sprintf("Rate limit exceeded: %s %q takes %s from each caller. Retry in %d s.", c.kind, c.name, c.limit, max(wait, 1)),
		mcperr.WithData(map[string]any{"limit": c.limit.Calls, "period": c.limit.Per.String(), "retryAfter": max(wait, 1), "retryable": true}),
		mistake(errRateLimited))
}

// errRateLimited is the cause of a call refused beyond its quota.
var errRateLimited = errors.New("the caller is over the definition's rate limit")
