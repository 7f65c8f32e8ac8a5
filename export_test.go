package mcpcore

import "context"

// WithoutTelemetry takes the server's telemetry away entirely, for the
// benchmark that measures what telemetry costs when nothing is exported.
func WithoutTelemetry(s *Server) { s.telemetry = nil }

// Drain makes the server stop admitting calls, as shutdown does first.
func Drain(s *Server) { s.inflight.drain(context.Background()) }
