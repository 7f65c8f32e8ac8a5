package telemetry

import (
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Config configures [New]. The zero value is valid: no-op providers.
type Config struct {
	// MeterProvider and TracerProvider receive the metrics and spans; nil
	// records nothing, and then Start and End skip building attributes.
	// They belong to the caller, which builds and stops them (package app
	// builds them from the OTEL_* variables).
	MeterProvider  metric.MeterProvider
	TracerProvider trace.TracerProvider

	// Propagator reads the trace context of a call from params._meta and
	// from HTTP headers. Nil means W3C Trace Context and Baggage, the
	// formats the MCP semantic conventions name.
	Propagator propagation.TextMapPropagator
}

// Telemetry holds a server's instruments and tracer. Build it once per
// server with [New]; it is safe for concurrent use.
type Telemetry struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
	inst   *instruments

	// tracing and metering are false when no provider was given: then
	// Start and End skip building attributes, which is most of their cost.
	tracing, metering bool

	// tp and mp are the providers in use.
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// New builds the instruments and the tracer on the providers of cfg, or
// on no-op ones where it gives none: then the call path costs almost
// nothing.
func New(cfg Config) (*Telemetry, error) {
	t := &Telemetry{prop: cfg.Propagator, tp: cfg.TracerProvider, mp: cfg.MeterProvider, tracing: true, metering: true}
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

// Enabled reports whether anything is recorded at all: false when both
// signals fell back to no-op providers. The root may use it to skip
// measuring input and output sizes.
func (t *Telemetry) Enabled() bool { return t.tracing || t.metering }

// TracerProvider returns the provider the server's spans go to: the
// caller's or a no-op one.
func (t *Telemetry) TracerProvider() trace.TracerProvider {
	if t == nil {
		return tracenoop.NewTracerProvider()
	}
	return t.tp
}

// MeterProvider returns the provider the server's metrics go to: the
// caller's or a no-op one.
func (t *Telemetry) MeterProvider() metric.MeterProvider {
	if t == nil {
		return metricnoop.NewMeterProvider()
	}
	return t.mp
}
