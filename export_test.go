package mcpcore

// WithoutTelemetry takes the server's telemetry away entirely, for the
// benchmark that measures what telemetry costs when nothing is exported.
func WithoutTelemetry(s *Server) { s.telemetry = nil }
