package redis

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/seed417024ea/mcpcore/fleet"
)

// BenchmarkAllow is the cost of one rate-limit decision: counted in this
// process (fleet.Local, as without Redis), in miniredis (the round trip
// over loopback and the Lua script, without Redis's own work), and in a
// real Redis when MCPCORE_REDIS_ADDR names one.
func BenchmarkAllow(b *testing.B) {
	quota := fleet.Limit{Calls: 1 << 30, Per: 1 << 40} // never refuses: the cost of counting alone
	run := func(b *testing.B, l fleet.Limiter) {
		ctx := context.Background()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := l.Allow(ctx, "tool:bench:caller"+strconv.Itoa(i%64), quota); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("local", func(b *testing.B) { run(b, fleet.NewLocal()) })
	b.Run("miniredis", func(b *testing.B) {
		m := startRedis(b)
		run(b, newReplica(b, m.Addr()).Limiter())
	})
	b.Run("redis", func(b *testing.B) {
		addr := os.Getenv("MCPCORE_REDIS_ADDR")
		if addr == "" {
			b.Skip("MCPCORE_REDIS_ADDR names no Redis")
		}
		run(b, newReplica(b, addr).Limiter())
	})
}

// BenchmarkPublish is what raising a notification costs the call that
// raises it: the event is queued, and sent in the background.
func BenchmarkPublish(b *testing.B) {
	m := startRedis(b)
	bus := newReplica(b, m.Addr()).Bus()
	e := fleet.Event{Method: fleet.ResourceUpdated, URI: "articles://items/31000001"}
	b.ReportAllocs()
	for b.Loop() {
		bus.Publish(e)
	}
}
