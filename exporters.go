package mcpcore

import (
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// OTLPExporters make the OpenTelemetry OTLP exporters that Config.Telemetry
// asks for (OTEL_TRACES_EXPORTER=otlp, OTEL_METRICS_EXPORTER=otlp, or an
// OTEL_EXPORTER_OTLP_*ENDPOINT alone), each from the endpoint (a full URL
// such as http://collector:4318/v1/traces; "" for the exporter's default)
// and the headers the OTEL_EXPORTER_OTLP_* variables resolve to. The
// server wraps what they return: a span's text is redacted before it is
// exported.
//
// otlp.HTTP{}, of package github.com/seed417024ea/mcpcore/otlp (a module
// of its own), makes them over OTLP/HTTP; set [ServerOptions].OTLP to it.
// They are not linked by default: with protobuf and gRPC's packages
// underneath, they would weigh some 6 MB in every server, exporting or not.
type OTLPExporters interface {
	Traces(endpoint string, headers map[string]string) (sdktrace.SpanExporter, error)
	Metrics(endpoint string, headers map[string]string) (sdkmetric.Exporter, error)
}
