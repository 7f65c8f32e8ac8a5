// Package otlpexport builds the OpenTelemetry OTLP/HTTP exporters. It is
// apart from internal/telemetry so that only programs that import
// github.com/seed417024ea/mcpcore/otlp link them: with protobuf and gRPC
// underneath, they are some 6 MB of binary and 170 KB of live heap from
// their package inits, which every other server would carry and every GC
// would scan.
package otlpexport

import (
	"context"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Traces returns an OTLP/HTTP span exporter that sends headers to endpoint
// (a full URL; "" for the default). It does not connect: a collector that
// is down costs retries in the background, never a failed start.
func Traces(headers map[string]string, endpoint string) (sdktrace.SpanExporter, error) {
	o := []otlptracehttp.Option{otlptracehttp.WithHeaders(headers)}
	if endpoint != "" {
		o = append(o, otlptracehttp.WithEndpointURL(endpoint))
	}
	return otlptracehttp.New(context.Background(), o...)
}

// Metrics is Traces for metrics.
func Metrics(headers map[string]string, endpoint string) (sdkmetric.Exporter, error) {
	o := []otlpmetrichttp.Option{otlpmetrichttp.WithHeaders(headers)}
	if endpoint != "" {
		o = append(o, otlpmetrichttp.WithEndpointURL(endpoint))
	}
	return otlpmetrichttp.New(context.Background(), o...)
}
