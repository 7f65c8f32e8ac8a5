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
// The kit's client declares the tasks extension (io.modelcontextprotocol/tasks):
// a call the server makes a task is polled to its end, and [Client.CallTool]
// returns the task's result, so that [AssertFailure] checks a task tool's
// failure as any other ([Options].NoTasks makes a client that does not
// declare it).
//
// The kit reads every tools/call that crosses one of its clients and
// counts, per tool, the declared reasons seen on the wire during the test
// binary's run (a task's, once it completed with a failure).
// [RequireCoverage], called from TestMain, fails the run when a declared
// reason was never seen, naming it; the flag
// -mcptest.coverprofile=FILE writes the table. This is the check that a
// reason raised below the handler, where mcplint cannot see, still has its
// test.
//
// [FuzzTool] drives one tool with `go test -fuzz` inputs, made from its
// input schema and from raw bytes, and checks the framework's promises on
// every call.
package mcptest
