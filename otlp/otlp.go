// Package otlp gives an mcpcore server the OpenTelemetry exporters over
// OTLP/HTTP (http/protobuf). Hand them to the server in its main package:
//
//	app.Main(info, &app.Options{OTLP: otlp.HTTP{}}, defs...)
//
// Then OTEL_TRACES_EXPORTER=otlp, OTEL_METRICS_EXPORTER=otlp and
// OTEL_EXPORTER_OTLP_ENDPOINT work as docs/observability.md says. Without
// them, asking for OTLP is a start-up error that says to add them. They are
// a module of their own: with protobuf and gRPC's packages underneath, they
// weigh some 6 MB of binary and 4 MB of resident memory, and their package
// inits 170 KB of live heap that every garbage collection scans, which no
// server that does not export should carry. The console exporters need
// nothing.
package otlp

import (
	"context"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// HTTP makes the OTLP/HTTP exporters a server's OTEL_* variables ask for:
// it is what app.Options.OTLP takes.
type HTTP struct{}

// Traces returns an OTLP/HTTP span exporter that sends headers to endpoint
// (a full URL; "" for the default). It does not connect: a collector that
// is down costs retries in the background, never a failed start.
func (HTTP) Traces(endpoint string, headers map[string]string) (sdktrace.SpanExporter, error) {
	o := []otlptracehttp.Option{otlptracehttp.WithHeaders(headers)}
	if endpoint != "" {
		o = append(o, otlptracehttp.WithEndpointURL(endpoint))
	}
	return otlptracehttp.New(context.Background(), o...)
}

// Metrics is Traces for metrics.
func (HTTP) Metrics(endpoint string, headers map[string]string) (sdkmetric.Exporter, error) {
	o := []otlpmetrichttp.Option{otlpmetrichttp.WithHeaders(headers)}
	if endpoint != "" {
		o = append(o, otlpmetrichttp.WithEndpointURL(endpoint))
	}
	return otlpmetrichttp.New(context.Background(), o...)
}
