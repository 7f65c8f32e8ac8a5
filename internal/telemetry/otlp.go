package telemetry

import (
	"errors"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The OTLP exporters, set by package github.com/seed417024ea/mcpcore/otlp
// when a program imports it (see internal/otlpexport for why they are not
// linked by default). Nil means the program has none.
var (
	OTLPTraces  func(headers map[string]string, endpoint string) (sdktrace.SpanExporter, error)
	OTLPMetrics func(headers map[string]string, endpoint string) (sdkmetric.Exporter, error)
)

// errNoOTLP says how to get OTLP into a program that asks for it.
var errNoOTLP = errors.New(`this program has no OTLP exporter: add import _ "github.com/seed417024ea/mcpcore/otlp" to its main package`)
