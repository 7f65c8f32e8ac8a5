// Package mcpotel records what an mcpcore server serves with OpenTelemetry:
// metrics and one span per tools/call, resources/read and prompts/get, in
// two vocabularies at once (the framework's own mcp.tool.* instruments and
// the OpenTelemetry semantic conventions for MCP; see names.go), and the
// duration of each session.
//
// It is the OpenTelemetry [mcpcore.Observer], kept out of the root package
// so that a server that records nothing links none of OpenTelemetry. Give
// it the providers your program built:
//
//	obs, err := mcpotel.New(mcpotel.Options{TracerProvider: tp, MeterProvider: mp})
//	…
//	srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{Observer: obs}, defs...)
//
// Package app does this with the providers it builds from the OTEL_*
// variables.
//
// The server makes two calls per request: [Observer.StartCall] when it
// admits the call, and End with the outcome when it has observed it. End
// records everything; nothing else touches a meter or a tracer, so what a
// call looks like in telemetry is decided in one place (record.go). A tool
// call that becomes a task has a third, BecameTask, at the boundary, which
// only swaps the request's span for the task's (task.go): End still
// records the call once, at the task's end.
//
// Unconfigured, the package uses the no-op providers and skips the work of
// building attributes altogether (see BenchmarkStartEnd).
package mcpotel
