package redis

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// testTiming is defaultTiming made quick, so that presence and the
// limiter's probe show within a test's patience.
var testTiming = timing{
	heartbeat:   50 * time.Millisecond,
	presenceTTL: time.Second,
	publish:     500 * time.Millisecond,
	allow:       200 * time.Millisecond,
	retry:       100 * time.Millisecond,
	task:        time.Second, // above the 200 ms of production: -race on a loaded machine
}

// replica is one Fleet of a test, with what it logged and measured.
type replica struct {
	*Fleet
	logs   *logRecorder
	reader *sdkmetric.ManualReader
}

// newReplica starts a Fleet of server "weather" on addr, with a client
// bounded as Open's is, and closes both at the end of the test.
func newReplica(t testing.TB, addr string) *replica {
	t.Helper()
	return newReplicaOf(t, addr, "weather", testTiming)
}

// newReplicaOf is newReplica for another server's namespace and timing.
func newReplicaOf(t testing.TB, addr, server string, tm timing) *replica {
	t.Helper()
	client := goredis.NewClient(&goredis.Options{
		Addr:                  addr,
		DialTimeout:           time.Second,
		ReadTimeout:           500 * time.Millisecond,
		WriteTimeout:          500 * time.Millisecond,
		MaxRetries:            -1,
		ContextTimeoutEnabled: true,
	})
	logs := &logRecorder{}
	reader := sdkmetric.NewManualReader()
	f := newFleet(client, &Options{
		Server:        server,
		Logger:        slog.New(logs),
		MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
	}, tm)
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		_ = client.Close()
	})
	return &replica{Fleet: f, logs: logs, reader: reader}
}

// startRedis starts a miniredis that the test closes at its end (closing
// it twice is harmless).
func startRedis(t testing.TB) *miniredis.Miniredis {
	t.Helper()
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// restartRedis starts a new, empty miniredis where m was, as a restarted
// Redis would be.
func restartRedis(t testing.TB, addr string) *miniredis.Miniredis {
	t.Helper()
	m := miniredis.NewMiniRedis()
	var err error
	// The port was just freed; give the kernel a moment if it wants one.
	eventually(t, "restart Redis on "+addr, func() bool { err = m.StartAddr(addr); return err == nil })
	t.Cleanup(m.Close)
	return m
}

// eventually polls cond for a generous while: for liveness, not speed.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting to %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sum is the value of the counter name among the metrics r has, over the
// points with attribute key=value (or all points when key is "").
func (r *replica) sum(t testing.TB, name, key, value string) int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					if v, _ := p.Attributes.Value(attribute.Key(key)); key == "" || v.AsString() == value {
						total += p.Value
					}
				}
			case metricdata.Gauge[int64]:
				for _, p := range d.DataPoints {
					total += p.Value
				}
			}
		}
	}
	return total
}

// logRecorder is a slog.Handler that keeps every record.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *logRecorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}
func (h *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *logRecorder) WithGroup(string) slog.Handler      { return h }

// count is how many records at level have a message containing part.
func (h *logRecorder) count(level slog.Level, part string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, r := range h.records {
		if r.Level == level && strings.Contains(r.Message, part) {
			n++
		}
	}
	return n
}

// all is every message, for a failure's report.
func (h *logRecorder) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.records {
		out = append(out, r.Level.String()+" "+r.Message)
	}
	return out
}
