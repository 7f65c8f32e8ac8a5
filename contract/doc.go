// Package contract is the vocabulary an mcpcore server and its clients
// share: the declared failure modes of a tool's error contract ([Failure],
// with its [Severity], [Retryability] and [ThrownBy]), the form in which a
// contract is published in a tool's _meta ([MetaKey], [Entry], [Publish],
// [ParseMeta]), and the text form of a failed call ("Error: …", then
// "Recovery: …"; [Text], [ParseText]).
//
// The server (package github.com/seed417024ea/mcpcore, which re-exports
// these names) encodes with it and the client (package
// github.com/seed417024ea/mcpcore/mcpclient) decodes with it, so the two
// cannot drift apart. It depends only on the standard library, package
// mcperr and the module's internal table of log level names (which
// [Severity.Level] shares with MCP_LOG_LEVEL): a Go client of an mcpcore
// server links none of the server's transports, authentication or
// telemetry.
package contract
