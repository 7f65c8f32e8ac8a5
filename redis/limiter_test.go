package redis

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// quota is 8 calls per 2 s: its interval, 250 ms, is exact in binary, so
// that the frozen clock of a test admits exactly the burst (with 10 a
// second, redis_rate's floating point falls a hair short of the tenth).
var quota = fleet.Limit{Calls: 8, Per: 2 * time.Second}

// admitted counts the calls of n admitted, round the replicas given.
func admitted(t *testing.T, n int, key string, rs ...*replica) int {
	t.Helper()
	got := 0
	for i := range n {
		d, err := rs[i%len(rs)].Limiter().Allow(context.Background(), key, quota)
		if err != nil {
			t.Fatalf("Allow: %v", err)
		}
		if d.Allowed {
			got++
		} else if d.RetryAfter <= 0 || d.RetryAfter > quota.Per {
			t.Fatalf("a call refused with RetryAfter %v, want within the quota's period", d.RetryAfter)
		}
	}
	return got
}

// A quota counts for the fleet: three replicas together admit 8, not 8
// each.
func TestLimiterCountsForTheFleet(t *testing.T) {
	m := startRedis(t)
	// redis_rate reads the time from Redis (TIME): frozen, the burst is
	// exactly the quota however slowly the calls go.
	m.SetTime(time.Unix(1_800_000_000, 0))
	a, b, c := newReplica(t, m.Addr()), newReplica(t, m.Addr()), newReplica(t, m.Addr())
	if got := admitted(t, 30, "tool:forecast:alice", a, b, c); got != 8 {
		t.Fatalf("three replicas admitted %d of 30 at 8 per 2 s, want 8", got)
	}
	if !m.Exists("mcpcore:weather:rate:tool:forecast:alice") {
		t.Errorf("no key mcpcore:weather:rate:tool:forecast:alice; keys: %q", m.Keys())
	}
	// Another key has its own quota; an interval later one more call is
	// due.
	if got := admitted(t, 1, "tool:forecast:bob", a); got != 1 {
		t.Error("another caller shares alice's quota")
	}
	m.SetTime(time.Unix(1_800_000_000, 0).Add(250 * time.Millisecond))
	if got := admitted(t, 3, "tool:forecast:alice", a, b, c); got != 1 {
		t.Errorf("an interval on, admitted %d, want 1", got)
	}
	if n := a.sum(t, "mcp.fleet.ratelimit.fallbacks", "", ""); n != 0 {
		t.Errorf("%d calls decided locally with Redis up", n)
	}
}

// With Redis gone, a replica decides alone at its share of each quota,
// without errors, counts it and says so once; it counts in Redis again when
// Redis returns.
func TestLimiterFallsBackToItsShare(t *testing.T) {
	m := startRedis(t)
	addr := m.Addr()
	a, b, c := newReplica(t, addr), newReplica(t, addr), newReplica(t, addr)
	for _, r := range []*replica{a, b, c} {
		eventually(t, "see three replicas", func() bool { return r.replicaCount() == 3 })
	}
	m.Close()

	if got := admitted(t, 30, "tool:forecast:alice", a); got != 3 {
		t.Fatalf("with Redis gone, one of three replicas admitted %d of 30 at 8 per 2 s, want 3 (its share)", got)
	}
	if n := a.sum(t, "mcp.fleet.ratelimit.fallbacks", "", ""); n != 30 {
		t.Errorf("counted %d calls decided locally, want 30", n)
	}
	if n := a.logs.count(slog.LevelWarn, "rate limits count per replica at 1/3 of each quota until it returns"); n != 1 {
		t.Errorf("warned %d times of the switch, want 1: %q", n, a.logs.all())
	}

	m2 := restartRedis(t, addr)
	eventually(t, "count in Redis again", func() bool {
		return a.logs.count(slog.LevelInfo, "rate limits count for the whole fleet") == 1
	})
	m2.SetTime(time.Unix(1_800_000_000, 0))
	if got := admitted(t, 30, "tool:forecast:alice", a, b); got != 8 {
		t.Errorf("back on Redis, admitted %d of 30, want the whole quota, 8", got)
	}
	if n := a.sum(t, "mcp.fleet.ratelimit.fallbacks", "", ""); n != 30 {
		t.Errorf("counted %d calls decided locally after Redis returned, want still 30", n)
	}
	if n := a.logs.count(slog.LevelWarn, "rate limits count per replica"); n != 1 {
		t.Errorf("warned %d times in all, want 1", n)
	}
}

// A call whose own context has ended is not Redis's failure.
func TestLimiterCallerGaveUp(t *testing.T) {
	m := startRedis(t)
	a := newReplica(t, m.Addr())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Limiter().Allow(ctx, "k", quota); err == nil {
		t.Error("no error for a context already ended")
	}
	if a.limiter.away.is() {
		t.Error("switched to counting locally because the caller gave up")
	}
	if d, err := a.Limiter().Allow(ctx, "k", fleet.Limit{}); err != nil || !d.Allowed {
		t.Errorf("no limit: %v, %v; want allowed", d, err)
	}
}
