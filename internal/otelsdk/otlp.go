package otelsdk

import (
	"errors"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// OTLPExporters make the OTLP exporters the environment asks for, from the
// endpoint (a full URL; "" for the exporter's default) and headers that
// the OTEL_EXPORTER_OTLP_* variables resolve to. The program gives them
// (app.Options.OTLP, of the same methods): the exporters of package
// github.com/seed417024ea/mcpcore/otlp, a module of its own, bring
// protobuf and gRPC's packages, some 6 MB of binary and 170 KB of live heap
// from their package inits, which a server that does not export would
// carry and every GC scan.
type OTLPExporters interface {
	Traces(endpoint string, headers map[string]string) (sdktrace.SpanExporter, error)
	Metrics(endpoint string, headers map[string]string) (sdkmetric.Exporter, error)
}

// errNoOTLP says how to get OTLP into a program that asks for it.
var errNoOTLP = errors.New(`this program has no OTLP exporter: set app.Options.OTLP to otlp.HTTP{} of package github.com/seed417024ea/mcpcore/otlp`)
