package mcpotel

import (
	"errors"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
)

// Bucket boundaries. The SDK's defaults (0 to 10 000) suit milliseconds but
// not seconds, where every call would fall into the first bucket, nor bytes.
var (
	// secondsBuckets are those the MCP semantic conventions recommend.
	secondsBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
	// sessionBuckets reach hours: a session lives as long as its client.
	sessionBuckets = []float64{1, 10, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 86400}
	// bytesBuckets grow by four, from an empty result to 16 MiB, the most
	// a stdio line may carry.
	bytesBuckets = []float64{0, 64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20}
	// countBuckets count the messages of a prompt.
	countBuckets = []float64{0, 1, 2, 4, 8, 16, 32, 64}
)

// instruments are built once per server, by New; an error building any of
// them fails New rather than silently losing a series.
type instruments struct {
	kinds      [len(surfaces)]kindInstruments
	active     metric.Int64UpDownCounter
	classified metric.Int64Counter
	operation  mcpconv.ServerOperationDuration
	session    mcpconv.ServerSessionDuration
}

// kindInstruments are the framework's instruments of one kind of call. A
// nil histogram is one the kind does not have.
type kindInstruments struct {
	calls, errors                         metric.Int64Counter
	duration                              metric.Float64Histogram
	inputBytes, outputBytes, messageCount metric.Int64Histogram
}

func newInstruments(m metric.Meter) (*instruments, error) {
	var errs []error
	check := func(err error) { errs = append(errs, err) }
	in := &instruments{}
	for k, s := range surfaces {
		ki := &in.kinds[k]
		var err error
		ki.calls, err = m.Int64Counter(s.calls.name, metric.WithUnit(s.calls.unit), metric.WithDescription(s.calls.desc))
		check(err)
		ki.errors, err = m.Int64Counter(s.errors.name, metric.WithUnit(s.errors.unit), metric.WithDescription(s.errors.desc))
		check(err)
		ki.duration, err = m.Float64Histogram(s.duration.name, metric.WithUnit(s.duration.unit), metric.WithDescription(s.duration.desc))
		check(err)
		ki.inputBytes, err = histogram(m, s.inputBytes, bytesBuckets)
		check(err)
		ki.outputBytes, err = histogram(m, s.outputBytes, bytesBuckets)
		check(err)
		ki.messageCount, err = histogram(m, s.messageCount, countBuckets)
		check(err)
	}
	var err error
	in.active, err = m.Int64UpDownCounter(activeRequests.name, metric.WithUnit(activeRequests.unit), metric.WithDescription(activeRequests.desc))
	check(err)
	in.classified, err = m.Int64Counter(classified.name, metric.WithUnit(classified.unit), metric.WithDescription(classified.desc))
	check(err)
	in.operation, err = mcpconv.NewServerOperationDuration(m, metric.WithExplicitBucketBoundaries(secondsBuckets...))
	check(err)
	in.session, err = mcpconv.NewServerSessionDuration(m, metric.WithExplicitBucketBoundaries(sessionBuckets...))
	check(err)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return in, nil
}

// histogram builds an integer histogram, or returns nil for an instrument
// the kind does not have.
func histogram(m metric.Meter, i instrument, buckets []float64) (metric.Int64Histogram, error) {
	if i.name == "" {
		return nil, nil
	}
	return m.Int64Histogram(i.name, metric.WithUnit(i.unit), metric.WithDescription(i.desc),
		metric.WithExplicitBucketBoundaries(buckets...))
}
