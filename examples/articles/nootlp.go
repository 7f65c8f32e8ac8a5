//go:build !otlp

package main

import "github.com/seed417024ea/mcpcore/app"

// otlpExporters is none without -tags otlp: asking for OTLP is then a
// start-up error that says so.
var otlpExporters app.OTLPExporters
