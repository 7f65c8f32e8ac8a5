package otelsdk

import (
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
)

// The globals Install may replace: OpenTelemetry's defaults, as the
// process started. Anything else was installed by the program itself, and
// stays.
var (
	globalsMu     sync.Mutex
	defaultTracer = otel.GetTracerProvider()
	defaultMeter  = otel.GetMeterProvider()
)

// InstallGlobals makes the providers New built OpenTelemetry's global
// ones, so that what the server's services record through otel.Tracer and
// otel.Meter goes where the server's own spans and metrics go, and a span
// they start from a call's context nests under the call span. With a
// tracer provider it installs prop too, unless the program set a
// propagator: an outgoing request then carries the call's trace.
//
// A provider is never installed over a global the program installed
// itself. The globals stay after Shutdown: what is recorded through them
// then is dropped, as by any stopped provider.
func (p *Providers) InstallGlobals(prop propagation.TextMapPropagator) {
	globalsMu.Lock()
	defer globalsMu.Unlock()
	// The dynamic types of these interfaces are pointers, or differ, so
	// comparing them cannot panic.
	if p.Tracer != nil && otel.GetTracerProvider() == defaultTracer {
		otel.SetTracerProvider(p.Tracer)
		if len(otel.GetTextMapPropagator().Fields()) == 0 {
			otel.SetTextMapPropagator(prop)
		}
	}
	if p.Meter != nil && otel.GetMeterProvider() == defaultMeter {
		otel.SetMeterProvider(p.Meter)
	}
}
