package mcpotel

import (
	"github.com/seed417024ea/mcpcore"

	"context"

	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Options configure [New]. The zero value is valid: it records nothing.
type Options struct {
	// MeterProvider and TracerProvider receive the metrics and spans; nil
	// records nothing of that signal, and when both are nil the server's
	// calls pay for nothing but a method call.
	// They belong to the caller, which builds and stops them (package app
	// builds them from the OTEL_* variables).
	MeterProvider  metric.MeterProvider
	TracerProvider trace.TracerProvider

	// Propagator reads the trace context of a call from params._meta and
	// from HTTP headers. Nil means W3C Trace Context and Baggage, the
	// formats the MCP semantic conventions name.
	Propagator propagation.TextMapPropagator
}

// An Observer records the calls and sessions of a server with
// OpenTelemetry: give it in mcpcore.ServerOptions.Observer. Build one per
// server with [New]; it is safe for concurrent use.
type Observer struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
	inst   *instruments

	// tracing and metering are false when no provider was given: then
	// StartCall and End skip building attributes, which is most of their
	// cost.
	tracing, metering bool

	// tp and mp are the providers in use.
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// New builds the instruments and the tracer on the providers of cfg, or
// on no-op ones where it gives none: then the call path costs almost
// nothing. It fails only when the meter provider refuses an instrument.
func New(cfg Options) (*Observer, error) {
	t := &Observer{prop: cfg.Propagator, tp: cfg.TracerProvider, mp: cfg.MeterProvider, tracing: true, metering: true}
	if t.prop == nil {
		t.prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	if t.tp == nil {
		t.tp, t.tracing = tracenoop.NewTracerProvider(), false
	}
	if t.mp == nil {
		t.mp, t.metering = metricnoop.NewMeterProvider(), false
	}
	t.tracer = t.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))
	var err error
	if t.inst, err = newInstruments(t.mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))); err != nil {
		return nil, err
	}
	return t, nil
}

// enabled reports whether anything is recorded at all: false when both
// signals fell back to no-op providers.
func (t *Observer) enabled() bool { return t.tracing || t.metering }

// TracerProvider returns the provider the server's spans go to: the
// caller's or a no-op one. A service can start its spans from it when the
// OpenTelemetry globals are not the server's.
func (t *Observer) TracerProvider() trace.TracerProvider {
	if t == nil {
		return tracenoop.NewTracerProvider()
	}
	return t.tp
}

// MeterProvider returns the provider the server's metrics go to: the
// caller's or a no-op one.
func (t *Observer) MeterProvider() metric.MeterProvider {
	if t == nil {
		return metricnoop.NewMeterProvider()
	}
	return t.mp
}

// TraceIDs returns the ids of the trace and span ctx carries, for the
// traceId and spanId of the server's log records; "" when it carries none.
func (t *Observer) TraceIDs(ctx context.Context) (traceID, spanID string) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", ""
	}
	return sc.TraceID().String(), sc.SpanID().String()
}

var _ mcpcore.Observer = (*Observer)(nil)
