package app

import (
	"go.opentelemetry.io/otel/propagation"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/otelsdk"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// propagator is what New installs as OpenTelemetry's global propagator
// with a tracer provider, when the program set none: the formats the MCP
// semantic conventions name, which the server reads a call's trace
// context in.
var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// buildTelemetry builds the providers cfg.Telemetry asks for, for the
// signals so gives none of, and sets them in so.
func buildTelemetry(info mcpcore.Info, cfg Config, opts *Options, so *mcpcore.ServerOptions) (*otelsdk.Providers, error) {
	p, err := otelsdk.New(otelsdk.Config{
		ServiceName: info.Name, ServiceVersion: info.Version, Env: otelsdk.Env(cfg.Telemetry),
		SkipTraces: so.TracerProvider != nil, SkipMetrics: so.MeterProvider != nil, OTLP: opts.OTLP,
	})
	if err != nil {
		return nil, mcperr.New(mcperr.CodeConfigurationError, "mcpcore: bad telemetry configuration: "+err.Error(), mcperr.WithCause(err))
	}
	// A nil pointer in an interface would not be nil.
	if p.Tracer != nil {
		so.TracerProvider = p.Tracer
	}
	if p.Meter != nil {
		so.MeterProvider = p.Meter
	}
	return p, nil
}
