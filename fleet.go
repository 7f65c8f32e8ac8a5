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
// With a shared [fleet.Limiter] (ServerOptions.Limiter, or MCP_REDIS_URL
// in a program built with package app and redis.Open) the quota is the
// whole fleet's; without one, each process counts its own.
//
// It is [fleet.Limit], the quota a Limiter is given, declared there so that
// a Limiter (package redis) links no server; it is named here because a
// Tool literal sets it, as [Failure] is.
type RateLimit = fleet.Limit

// shared is what the server shares with the other replicas of its fleet.
type shared struct {
	bus     fleet.Bus
	limiter fleet.Limiter
	// stopListening ends the delivery of the others' events.
	stopListening func()
	// limiterFailed logs once that a limiter of the program's own could
	// not decide.
	limiterFailed sync.Once
}

// openShared starts what the server shares: the options' Bus and
// Limiter, else a local limiter and no bus.
func (s *Server) openShared(opts *ServerOptions) {
	sh := &shared{bus: opts.Bus, limiter: opts.Limiter}
	if sh.limiter == nil {
		sh.limiter = fleet.NewLocal()
	}
	if sh.bus != nil {
		sh.stopListening = sh.bus.Listen(s.deliver)
	}
	s.shared = sh
}

// closeShared stops the delivery of events; Shutdown calls it.
func (s *Server) closeShared() {
	if sh := s.shared; sh != nil && sh.stopListening != nil {
		sh.stopListening()
	}
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
		// Lists change through the fleet's Catalog (see SetEnabled),
		// each replica telling its own sessions: a list-changed event
		// on the bus would tell them twice.
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
