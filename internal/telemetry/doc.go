// Package telemetry observes the calls an mcpcore server serves: metrics and
// one span per tools/call, resources/read and prompts/get, in two
// vocabularies at once (the framework's own mcp.tool.* instruments and the
// OpenTelemetry semantic conventions for MCP; see names.go).
//
// The dispatch makes two calls per request: [Telemetry.Start] when it admits
// the call, and [Call.End] with the [Outcome] when it has observed it. End
// records everything; nothing else in the server touches a meter or a
// tracer, so what a call looks like in telemetry is decided in one place
// (record.go).
//
// Unconfigured, the package uses the no-op providers and skips the work of
// building attributes altogether, so a server that exports nothing pays
// almost nothing per call (see BenchmarkStartEnd).
package telemetry
