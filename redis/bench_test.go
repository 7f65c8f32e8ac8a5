package redis

import (
	"context"
	"crypto/rand"
	"os"
	"strconv"
	"testing"
	"time"

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

// BenchmarkTaskCreate is the cost of making a call a task: the record
// written where any replica finds it. In this process (fleet.LocalTasks,
// as without Redis), in miniredis (the round trip and the script, without
// Redis's own work), and in a real Redis when MCPCORE_REDIS_ADDR names one.
func BenchmarkTaskCreate(b *testing.B) {
	run := func(b *testing.B, s fleet.TaskStore) {
		task := working(s)
		task.TTL = time.Minute // what a run leaves behind in a real Redis goes soon
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			task.ID = "bench-" + strconv.Itoa(i) + "-" + rand.Text()[:8]
			if _, err := s.Create(context.Background(), task); err != nil {
				b.Fatal(err)
			}
		}
	}
	eachTaskStore(b, run)
}

// BenchmarkTaskGet is the cost of one tasks/get: the read of a working
// task by its owner.
func BenchmarkTaskGet(b *testing.B) {
	run := func(b *testing.B, s fleet.TaskStore) {
		task, err := s.Create(context.Background(), working(s))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Get(context.Background(), task.ID, "alice"); err != nil {
				b.Fatal(err)
			}
		}
	}
	eachTaskStore(b, run)
}

// eachTaskStore runs bench on LocalTasks, a store on miniredis, and one on
// the Redis MCPCORE_REDIS_ADDR names.
func eachTaskStore(b *testing.B, bench func(*testing.B, fleet.TaskStore)) {
	b.Run("local", func(b *testing.B) {
		bench(b, fleet.NewLocalTasks(fleet.LocalTasksOptions{MaxRecords: -1, MaxBytes: -1}))
	})
	b.Run("miniredis", func(b *testing.B) {
		m := startRedis(b)
		bench(b, newReplica(b, m.Addr()).Tasks())
	})
	b.Run("redis", func(b *testing.B) {
		addr := realRedis(b)
		bench(b, newReplicaOf(b, addr, testServer(b), testTiming).Tasks())
	})
}
