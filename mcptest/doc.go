// Package mcptest tests servers built on mcpcore: every declared failure a
// tested failure.
//
// [Start] serves definitions in memory and returns a connected [Client]
// whose helpers call tools, read resources, get prompts and collect the
// notifications the server sends (progress, log messages, resource
// updates); the server logs to the test's log. [AssertFailure] checks that
// a result is a declared failure on both client surfaces, and prints the
// diff when it is not. A [Harness] runs one handler without a server, with
// its contract attached.
//
// The kit reads every tools/call that crosses one of its clients and
// counts, per tool, the declared reasons seen on the wire during the test
// binary's run. [RequireCoverage], called from TestMain, fails the run
// when a declared reason was never seen, naming it; the flag
// -mcptest.coverprofile=FILE writes the table. This is the check that a
// reason raised below the handler, where mcplint cannot see, still has its
// test.
//
// [FuzzTool] drives one tool with `go test -fuzz` inputs, made from its
// input schema and from raw bytes, and checks the framework's promises on
// every call.
package mcptest
