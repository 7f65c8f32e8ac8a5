//go:build !otlp

package main

import "github.com/seed417024ea/mcpcore"

// otlpExporters is none without -tags otlp: asking for OTLP is then a
// start-up error that says so.
var otlpExporters mcpcore.OTLPExporters
