// Command load measures an MCP server from outside, as issue 13 asks: it
// starts the server binary it is given, opens a session with the official
// Go SDK's client, warms up, then makes a fixed number of tools/call calls
// at a fixed concurrency, and reports what the calls cost the server.
//
// # Running
//
// The whole comparison, mcpcore's examples/articles against the peers of
// bench/ (the bare go-sdk, the SDK's typed API, mcp-go, and the SDK
// patched), is one command from the repository root:
//
//	bench/run.sh            # 12 interleaved passes of 8000 calls (make bench)
//	bench/run.sh -quick     # 2 passes of 2000 calls
//
// One run by hand:
//
//	go -C examples build -o ../bin/articles ./articles
//	go build -o bin/load ./bench/load
//	bin/load -server bin/articles -name mcpcore -transport http -c 16 -mode error -n 20000
//
// # What a run measures
//
//   - -mode echo calls echo {"message": "hello"}, which succeeds; -mode
//     error calls fetch_articles {"pmids": []}, which fails with the
//     example's declared no_match failure; -mode fetch calls
//     fetch_articles {"pmids": ["31000001"]}, which succeeds, so that the
//     error path can be set against a success of its own tool (echo has
//     no array to validate). The first call's answer is checked (-show
//     prints it).
//   - -transport stdio starts the server with its standard input and
//     output as the transport (mcp.CommandTransport): one session, -c
//     callers sharing it. -transport http starts it with
//     MCP_TRANSPORT_TYPE=http on a free port of 127.0.0.1 and connects with
//     mcp.StreamableClientTransport: by default one shared session with -c
//     concurrent calls, as issue 13 measured (mcpcore admits 64 calls in
//     flight per session, MCP_MAX_CALLS_PER_SESSION, so -c 64 fits);
//     -sessions per-worker opens one session per caller. The HTTP client
//     keeps an idle connection per caller, and opens no standalone SSE
//     stream. The server is stateful (MCP_SESSION_MODE=stateful); with
//     -stateless it is started with MCP_SESSION_MODE=stateless, and each
//     call is a request of its own, without a session. A server that
//     answers in the other mode (a session id when stateless, none when
//     stateful) is refused rather than measured under the wrong label.
//   - The server's environment is the load's, less every MCP_ and OTEL_
//     variable, plus -env KEY=VALUE; its stderr (mcpcore's logs) goes to
//     /dev/null, or to -server-log.
//   - The client asks for the SDK's latest protocol version (with go-sdk
//     v1.8.0, 2026-07-28) unless -protocol says otherwise, but for
//     stateful HTTP 2025-11-25, the latest with sessions: a server that
//     also speaks 2026-07-28 (mcp-go does, stateful or not) would answer
//     the client's server/discover and serve every call without a
//     session. The result records the version agreed.
//
// Server CPU per call is the server process's utime+stime, from
// /proc/<pid>/stat in clock ticks (getconf CLK_TCK, normally 100 a second),
// taken just before the first timed call and just after the last, divided
// by the calls. A tick is 10 ms, so a window needs 100 ticks (1 s of server
// CPU) for a figure within 1 %: the default -n 2000 is for a quick look,
// and the load warns under 100 ticks; run.sh makes 8000 calls a run (1–4 s
// of server CPU) and takes the median of 12 passes. Idle RSS is VmRSS
// once the session is initialized, before any call (-settle later), with
// its anonymous part (RssAnon: heap and stacks, not the binary's pages);
// peak RSS is VmHWM after the last call. Latency (p50, p99, nearest rank)
// and calls/s are the client's, on the same two cores as the server.
//
// # Output
//
// One JSON line per run on stdout, and the same run as a Go benchmark line
// on stderr (BenchmarkLoad/transport=…/mode=…/c=…/server=…, the transport
// http-stateless for a -stateless run, as in every table of the report),
// so that benchstat -col /server compares the servers. load report reads the JSON
// lines of many runs and prints markdown tables: per configuration, the
// ratio of the two servers' CPU per call paired within each pass, as
// median (min–max) over the passes; calls/s and latency; the error path
// over the success path; memory; and, with -allocs, the allocations of
// go test -bench 'ToolCall|HTTPCall' -benchmem:
//
//	bin/load report -subject mcpcore -base baseline -allocs allocs.txt results.jsonl
package main
