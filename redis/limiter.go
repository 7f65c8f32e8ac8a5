package redis

import (
	"context"
	"fmt"
	"strings"

	redis_rate "github.com/go-redis/redis_rate/v10"
	goredis "github.com/redis/go-redis/v9"

	"github.com/seed417024ea/mcpcore/fleet"
)

// limiter is the Fleet's [fleet.Limiter]: redis_rate's GCRA in Redis, and
// a [fleet.Local] at this replica's share while Redis is away.
type limiter struct {
	f     *Fleet
	rate  *redis_rate.Limiter
	local *fleet.Local

	// away is set while calls are decided locally.
	away away
}

func newLimiter(f *Fleet) *limiter {
	return &limiter{
		f:     f,
		rate:  redis_rate.NewLimiter(unprefixed{f.client}),
		local: fleet.NewLocal(),
	}
}

// Allow counts one call against key's quota for the whole fleet. While
// Redis is away it decides at once, locally, at this replica's share of l,
// and tries Redis again in the background once a second; it never returns
// an error but the caller's own context's.
func (l *limiter) Allow(ctx context.Context, key string, lim fleet.Limit) (fleet.Decision, error) {
	if lim.Calls < 1 || lim.Per <= 0 {
		return fleet.Decision{Allowed: true}, nil
	}
	if !l.away.is() {
		cctx, cancel := context.WithTimeout(ctx, l.f.timing.allow)
		res, err := l.rate.Allow(cctx, l.f.key("rate:"+key), redis_rate.Limit{Rate: lim.Calls, Burst: lim.Calls, Period: lim.Per})
		cancel()
		if err == nil {
			return decision(res), nil
		}
		if ctx.Err() != nil {
			return fleet.Decision{}, ctx.Err() // the caller gave up, not Redis
		}
		l.goLocal(err)
	}
	l.f.meters.fallbacks.Add(ctx, 1)
	return l.local.Allow(ctx, key, lim.Share(l.f.replicaCount()))
}

func decision(res *redis_rate.Result) fleet.Decision {
	if res.Allowed > 0 {
		return fleet.Decision{Allowed: true}
	}
	return fleet.Decision{RetryAfter: max(res.RetryAfter, 0)}
}

// goLocal switches to counting locally, once, and starts the probe that
// switches back.
func (l *limiter) goLocal(err error) {
	l.away.set(l.f, func() {
		l.f.log.Warn("Redis is unreachable: rate limits count per replica at "+share(l.f.replicaCount())+" until it returns",
			"error", err)
	}, func() {
		l.f.log.Info("Redis is reachable again: rate limits count for the whole fleet")
	})
}

// share reads n replicas' part of a quota: "1/3 of each quota".
func share(n int) string {
	if n <= 1 {
		return "the whole of each quota (one replica seen)"
	}
	return fmt.Sprintf("1/%d of each quota", n)
}

// unprefixed gives redis_rate the client with its "rate:" prefix taken off
// the keys, so that every key stays under mcpcore:<server>: (which an ACL
// can grant) rather than under rate:.
type unprefixed struct{ goredis.UniversalClient }

const ratePrefix = "rate:"

func trim(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.TrimPrefix(k, ratePrefix)
	}
	return out
}

func (u unprefixed) Eval(ctx context.Context, script string, keys []string, args ...any) *goredis.Cmd {
	return u.UniversalClient.Eval(ctx, script, trim(keys), args...)
}

func (u unprefixed) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *goredis.Cmd {
	return u.UniversalClient.EvalSha(ctx, sha1, trim(keys), args...)
}

func (u unprefixed) EvalRO(ctx context.Context, script string, keys []string, args ...any) *goredis.Cmd {
	return u.UniversalClient.EvalRO(ctx, script, trim(keys), args...)
}

func (u unprefixed) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...any) *goredis.Cmd {
	return u.UniversalClient.EvalShaRO(ctx, sha1, trim(keys), args...)
}

func (u unprefixed) Del(ctx context.Context, keys ...string) *goredis.IntCmd {
	return u.UniversalClient.Del(ctx, trim(keys)...)
}
