package telemetry

import (
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// The globals a server may replace: OpenTelemetry's defaults, as the
// process started, and the providers a server installed last. Anything else
// was installed by the program itself, and stays.
var (
	globalsMu     sync.Mutex
	defaultTracer = otel.GetTracerProvider()
	defaultMeter  = otel.GetMeterProvider()
	lastTracer    trace.TracerProvider
	lastMeter     metric.MeterProvider
)

// InstallGlobals makes the providers New built from the environment
// OpenTelemetry's global ones, so that what the server's services record
// through otel.Tracer and otel.Meter goes where the server's own spans and
// metrics go, and a span they start from a call's context nests under the
// call span. With a tracer provider it installs the server's propagator
// too, unless the program set one: an outgoing request then carries the
// call's trace.
//
// A provider the caller gave in Config is never installed, nor is one over
// a global the program installed itself. Between servers of one process,
// the last to install wins. The globals stay after Shutdown: what is
// recorded through them then is dropped, as by any stopped provider.
func (t *Telemetry) InstallGlobals() {
	if t == nil {
		return
	}
	globalsMu.Lock()
	defer globalsMu.Unlock()
	// The dynamic types of these interfaces are pointers, or differ, so
	// comparing them cannot panic.
	if t.builtTracer {
		if cur := otel.GetTracerProvider(); cur == defaultTracer || cur == lastTracer {
			otel.SetTracerProvider(t.tp)
			lastTracer = t.tp
			if len(otel.GetTextMapPropagator().Fields()) == 0 {
				otel.SetTextMapPropagator(t.prop)
			}
		}
	}
	if t.builtMeter {
		if cur := otel.GetMeterProvider(); cur == defaultMeter || cur == lastMeter {
			otel.SetMeterProvider(t.mp)
			lastMeter = t.mp
		}
	}
}

// TracerProvider returns the provider the server's spans go to: the
// caller's, the one New built, or a no-op one.
func (t *Telemetry) TracerProvider() trace.TracerProvider {
	if t == nil {
		return tracenoop.NewTracerProvider()
	}
	return t.tp
}

// MeterProvider returns the provider the server's metrics go to: the
// caller's, the one New built, or a no-op one.
func (t *Telemetry) MeterProvider() metric.MeterProvider {
	if t == nil {
		return metricnoop.NewMeterProvider()
	}
	return t.mp
}
