package app

import (
	"context"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/otelsdk"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcpotel"
)

// propagator is what New installs as OpenTelemetry's global propagator
// with a tracer provider, when the program set none: the formats the MCP
// semantic conventions name, which the server reads a call's trace
// context in.
var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// telemetry is what buildTelemetry settled: the providers it built from
// the environment, and the providers in use, the program's or those; nil
// for a signal that has none.
type telemetry struct {
	built  *otelsdk.Providers
	tracer trace.TracerProvider
	meter  metric.MeterProvider
}

// buildTelemetry builds the providers cfg.Telemetry asks for, for the
// signals opts gives none of, and, when there is a provider to record
// to and so has no Observer of the program's, sets so.Observer to the
// OpenTelemetry observer on them. With no provider at all the server has
// no Observer: its calls pay nothing for telemetry.
func buildTelemetry(info mcpcore.Info, cfg Config, opts *Options, so *mcpcore.ServerOptions) (*telemetry, error) {
	p, err := otelsdk.New(otelsdk.Config{
		ServiceName: info.Name, ServiceVersion: info.Version, Env: otelsdk.Env(cfg.Telemetry),
		SkipTraces: opts.TracerProvider != nil, SkipMetrics: opts.MeterProvider != nil, OTLP: opts.OTLP,
	})
	if err != nil {
		return nil, badTelemetry(err)
	}
	t := &telemetry{built: p, tracer: opts.TracerProvider, meter: opts.MeterProvider}
	// A nil pointer in an interface would not be nil.
	if p.Tracer != nil {
		t.tracer = p.Tracer
	}
	if p.Meter != nil {
		t.meter = p.Meter
	}
	if so.Observer != nil || (t.tracer == nil && t.meter == nil) {
		return t, nil
	}
	obs, err := mcpotel.New(mcpotel.Options{TracerProvider: t.tracer, MeterProvider: t.meter})
	if err != nil {
		_ = p.Shutdown(context.Background())
		return nil, badTelemetry(err)
	}
	so.Observer = obs
	return t, nil
}

func badTelemetry(err error) error {
	return mcperr.New(mcperr.CodeConfigurationError, "mcpcore: bad telemetry configuration: "+err.Error(), mcperr.WithCause(err))
}
