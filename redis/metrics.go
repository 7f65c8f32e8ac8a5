package redis

import (
	"context"
	"errors"
	"log/slog"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// meterName is the instrumentation scope of the fleet's metrics.
const meterName = "github.com/seed417024ea/mcpcore/redis"

// Why the bus dropped an event, as attribute mcp.fleet.drop_reason reads.
const (
	reasonQueueFull   = "queue_full"  // Publish found the queue full
	reasonUnreachable = "unreachable" // PUBLISH failed, or Redis was away
	reasonEcho        = "echo"        // this replica's own event came back
	reasonMalformed   = "malformed"   // a message on the channel was not an event
	reasonClosed      = "closed"      // Publish after Close
)

// meters are a Fleet's instruments.
type meters struct {
	published, delivered, dropped, fallbacks metric.Int64Counter
	signals, signalsDropped                  metric.Int64Counter
	reasons                                  map[string]metric.AddOption
	reg                                      metric.Registration
}

// newMeters builds the instruments on mp (nil records none). One that
// cannot be built is logged and left a no-op: a fleet without a metric
// still carries the notifications.
func newMeters(mp metric.MeterProvider, replicas func() int, log *slog.Logger) *meters {
	if mp == nil {
		mp = noop.NewMeterProvider()
	}
	m := mp.Meter(meterName)
	var errs []error
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, err := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err != nil {
			errs = append(errs, err)
			c, _ = noop.NewMeterProvider().Meter(meterName).Int64Counter(name)
		}
		return c
	}
	ms := &meters{
		published: counter("mcp.fleet.notifications.published", "{notifications}",
			"Notifications this replica published to the other replicas."),
		delivered: counter("mcp.fleet.notifications.delivered", "{notifications}",
			"Notifications of other replicas this replica delivered to its subscribers."),
		dropped: counter("mcp.fleet.notifications.dropped", "{notifications}",
			"Notifications not published or not delivered, by mcp.fleet.drop_reason."),
		fallbacks: counter("mcp.fleet.ratelimit.fallbacks", "{calls}",
			"Rate-limited calls decided by this replica alone, at its share of the quota, because Redis was unreachable."),
		signals: counter("mcp.fleet.tasks.signals.delivered", "{signals}",
			"Answers, cancels and abandons of this replica's tasks by other replicas, delivered to the tasks it runs."),
		signalsDropped: counter("mcp.fleet.tasks.signals.dropped", "{signals}",
			"Messages on the tasks channel not delivered, by mcp.fleet.drop_reason (echo, malformed)."),
		reasons: map[string]metric.AddOption{},
	}
	for _, r := range []string{reasonQueueFull, reasonUnreachable, reasonEcho, reasonMalformed, reasonClosed} {
		ms.reasons[r] = metric.WithAttributeSet(attribute.NewSet(attribute.String("mcp.fleet.drop_reason", r)))
	}
	gauge, err := m.Int64ObservableGauge("mcp.fleet.replicas", metric.WithUnit("{replicas}"),
		metric.WithDescription("Replicas of this server last seen alive in Redis, this one included."))
	if err == nil {
		ms.reg, err = m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
			o.ObserveInt64(gauge, int64(replicas()))
			return nil
		}, gauge)
	}
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		log.Warn("some of the fleet's metrics cannot be recorded", "error", err)
	}
	return ms
}

// drop counts one event dropped for reason.
func (m *meters) drop(reason string) {
	m.dropped.Add(context.Background(), 1, m.reasons[reason])
}

// dropSignal counts one task signal dropped for reason.
func (m *meters) dropSignal(reason string) {
	m.signalsDropped.Add(context.Background(), 1, m.reasons[reason])
}

// close stops observing the gauge, for Close.
func (m *meters) close() error {
	if m.reg == nil {
		return nil
	}
	return m.reg.Unregister()
}
