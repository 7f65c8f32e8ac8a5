package app

import (
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet/opener"
)

// Options are what a program gives [New] and [Main] besides the
// environment. The zero value, or nil, is a server that exports no OTLP
// and opens no Redis.
type Options struct {
	// Server is the server's options, which New builds on: it replaces
	// their Config with the one it is given, adds the Observer of the
	// providers it builds and the Bus and Limiter it opens where they are
	// nil, and leaves the rest as they are. It is not changed; nil means
	// the zero ServerOptions. An Observer of the program's own is kept:
	// the server's calls are then recorded there, not on the providers.
	Server *mcpcore.ServerOptions

	// TracerProvider and MeterProvider are the program's own providers:
	// the server's spans and metrics go to them (through the
	// mcpotel.Observer New builds), and New builds none from the OTEL_*
	// variables for that signal. New neither installs them as
	// OpenTelemetry's globals nor stops them: they are the program's.
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider

	// OpenRedis opens the Bus and Limiter at Config.RedisURL
	// (MCP_REDIS_URL) when Server gives none: set it to redis.Open of
	// package github.com/seed417024ea/mcpcore/redis, a module of its own
	// so that a server run as one replica links no Redis client. Given a
	// RedisURL and no OpenRedis, New refuses to start, saying so.
	OpenRedis opener.Func

	// OTLP makes the OTLP exporters Config.Telemetry asks for: set it to
	// otlp.HTTP{} of package github.com/seed417024ea/mcpcore/otlp, a
	// module of its own. Asked for OTLP without it, New refuses to start,
	// saying so; the console exporters need nothing.
	OTLP OTLPExporters

	// KeepOTelGlobals leaves OpenTelemetry's global providers and
	// propagator as they are. Otherwise the providers New builds from
	// Config.Telemetry become the global ones (and W3C Trace Context and
	// Baggage the propagator, when the program set none), so that a span a
	// service starts with otel.Tracer(…).Start(ctx, …) from the handler's
	// context nests under the call span and is exported with it. A global
	// the program installed itself is kept either way.
	KeepOTelGlobals bool
}

// OTLPExporters make the OpenTelemetry OTLP exporters that
// Config.Telemetry asks for (OTEL_TRACES_EXPORTER=otlp,
// OTEL_METRICS_EXPORTER=otlp, or an OTEL_EXPORTER_OTLP_*ENDPOINT alone),
// each from the endpoint (a full URL such as
// http://collector:4318/v1/traces; "" for the exporter's default) and the
// headers the OTEL_EXPORTER_OTLP_* variables resolve to. What they return
// is wrapped: a span's text is masked before it is exported.
//
// otlp.HTTP{}, of package github.com/seed417024ea/mcpcore/otlp, makes them
// over OTLP/HTTP. They are not linked by default: with protobuf and gRPC's
// packages underneath, they would weigh some 6 MB in every server,
// exporting or not.
type OTLPExporters interface {
	Traces(endpoint string, headers map[string]string) (sdktrace.SpanExporter, error)
	Metrics(endpoint string, headers map[string]string) (sdkmetric.Exporter, error)
}
