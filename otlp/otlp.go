// Package otlp gives an mcpcore server the OpenTelemetry OTLP/HTTP
// exporters. Import it for its side effect, in the main package:
//
//	import _ "github.com/seed417024ea/mcpcore/otlp"
//
// Then OTEL_TRACES_EXPORTER=otlp, OTEL_METRICS_EXPORTER=otlp and
// OTEL_EXPORTER_OTLP_ENDPOINT work as docs/observability.md says.
// Without the import, asking for OTLP is a start-up error that says to
// add it: the exporters (protobuf and gRPC underneath) weigh some 6 MB of
// binary and 4 MB of resident memory, and their package inits 170 KB of
// live heap that every garbage collection scans, in every server, whether
// it exports or not. The console exporters need no import.
package otlp

import (
	"github.com/seed417024ea/mcpcore/internal/otlpexport"
	"github.com/seed417024ea/mcpcore/internal/telemetry"
)

func init() {
	telemetry.OTLPTraces = otlpexport.Traces
	telemetry.OTLPMetrics = otlpexport.Metrics
}
