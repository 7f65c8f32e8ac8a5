//go:build otlp

package main

import (
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/otlp"
)

// Built with -tags otlp, the example exports traces and metrics over OTLP
// (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_*_EXPORTER=otlp); without it, it stays
// as small as a server that does not export.
var otlpExporters app.OTLPExporters = otlp.HTTP{}
