// Package mcpcore builds MCP servers whose failures are a typed, published
// contract.
//
// A server is a set of definitions — [Tool], [Resource] and [Prompt] — with
// typed inputs and outputs, served by a [Server] over stdio or Streamable
// HTTP through the official MCP Go SDK. Each tool may declare its error
// contract: the [Failure] modes it can end in, with a reason, a code, when it
// happens and what the caller should do next. The contract is checked when
// the server starts, published to clients in tools/list, and used by the
// handler through [Context.Fail] and [Context.RecoveryFor].
//
// A whole server is a few lines:
//
//	var greet = mcpcore.Tool[greetInput, greetOutput]{
//		Name:        "greet",
//		Description: "Greet someone by name.",
//		Handler: func(ctx *mcpcore.Context, in greetInput) (greetOutput, error) {
//			return greetOutput{Greeting: "Hello, " + in.Name + "!"}, nil
//		},
//	}
//
//	func main() {
//		srv, err := mcpcore.NewServer(mcpcore.Info{Name: "hello", Version: "0.1.0"}, nil, greet)
//		if err != nil {
//			log.Fatal(err) // a definition NewServer refuses, named
//		}
//		// A whole stdio program: it ends with its input, and shuts down.
//		if err := srv.Serve(context.Background(), &mcp.StdioTransport{}); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// # Failing as declared
//
// [Context.Fail] takes the declared [Failure] value, not a reason string, so
// a misspelt reason cannot reach a client. Failing with a Failure that the
// definition does not declare (another definition's entry, or a literal
// written at the call) compiles, but the call then ends as an InternalError
// that names the reason, with data.declaredReasons listing the declared ones,
// logged at error. The mcplint command (cmd/mcplint) reports it before
// shipping, as its error-level rule error-contract-undeclared.
//
// An error from a service is mapped onto the contract by
// [Context.FailFrom]: the declared entry whose reason the service stamped,
// else the one whose code is the error's, with the service's message, data
// and cause kept (a recovery hint the service set included); any other error
// is returned unchanged. A declared Recovery is sent only where the code
// that fails asks for it: [Context.RecoveryFor] in a handler (at a Fail, or
// in the [OnDecline] of a question), [RecoveryFor] with the call's
// context.Context where a service raises.
//
// # Where errors are handled
//
// Handlers and services return errors; they do not catch them. The dispatch
// catches everything, returned errors and panics alike, and renders it:
//
//   - A tool failure is a successful JSON-RPC result with isError: true, so
//     the model sees it and can correct itself. content[0].text is
//     "Error: <message>", followed by "\n\nRecovery: <hint>" when the error
//     carries data.recovery.hint; structuredContent.error is the JSON-RPC
//     error object {code, message, data?}. Both surfaces always agree.
//   - Invalid tool input is a ValidationError result whose message lists up
//     to 10 of the problems, each at its path, and whose data.issues lists
//     them (path, message, keyword), at most 100, with data.issuesOmitted
//     counting the rest; the handler is not called.
//   - A resource or prompt failure is a JSON-RPC error with exactly the code,
//     message and data of the error.
//
// An [*mcperr.Error] keeps its code, message and data on the wire. Any other
// error is classified ([mcperr.From]) and sent with code and its message,
// scrubbed of secrets ([mcperr.Scrub]), only: a classified error never leaks
// data. A panic, or a typed nil returned as error, becomes an InternalError
// with a generic message; its value and stack go to the log, never to the
// client. Data that JSON cannot encode is dropped from the answer, and named
// in the log, so that every call is answered. A call the client cancels ends
// as RequestCancelled, one whose deadline passes as Timeout.
//
// Malformed JSON-RPC (on stdio, a line; over HTTP, a body) is answered with
// -32700 or -32600 before the SDK sees it, and the server goes on serving;
// see [Server.Serve] and [Server.Handler].
//
// # Around every handler
//
// [ServerOptions].Interceptors wrap the handler of every tool, resource and
// prompt (see [Interceptor]): caching, audit records, quotas or argument
// rewriting, seeing the definition, the decoded input and the outcome. They
// run inside the dispatch, after validation and before rendering, so what
// they return or panic with is handled as a handler's.
//
// # The rest of the protocol
//
// A handler's [Context] also speaks the rest of MCP: [Context.Progress],
// [Context.Sample], [Elicit], [Context.Roots], [Context.Logger] (sent to the
// client as log messages too), and [Context.NotifyResourceUpdated] for
// resources that accept subscriptions ([Resource].Subscribe). Prompts and
// resource templates declare completers ([CompleteFunc]). Each failure of
// these is an [*mcperr.Error]: a client without the capability a call needs
// gets MissingClientCapability (-32021) as a JSON-RPC error, which MCP makes
// a protocol error; a user who declines a question gets the tool's declared
// consent_declined failure. The same handler works under every protocol
// version: from 2026-07-28 the questions travel in the call's result and the
// handler runs again with the answers (see [ErrInputRequired]).
//
// # Logging
//
// Every failure is logged once, as "Error in tool:<name>: <message>" (or
// resource:, prompt:), at one of these levels:
//
//   - info, without a stack, for a request that was cancelled;
//   - warning for a client without a capability the call needs;
//   - notice for a client's mistake: a tool's or a prompt's arguments, or a
//     resource URI's variables, that do not fit; an answer that does not fit
//     the form it was asked with; a requestState that is not the server's;
//     a token without the scopes a definition needs; a session or the
//     server over its limit of calls in flight;
//   - the Severity its contract entry declares, for a tool's declared
//     failure (that entry only: same reason and code);
//   - error for everything else.
//
// Identical failure records (same definition, code, reason, panic site and
// message) within [ServerOptions.RepeatWindow] are collapsed into the first
// and one record with a count; distinct messages of one kind each get their
// record, up to 10 a window, the rest counted. Every record is redacted:
// sensitive keys at any depth, and secrets in text. What reaches the client
// (results, errors, log notifications) is scrubbed the same way, whoever
// built it, and a record mirrored to the client leaves out the input and
// stack captured for diagnostics.
// Logs go to stderr by default, since stdout belongs to the stdio transport.
//
// # Configuration
//
// Every setting is a field of [Config], held by [ServerOptions.Config];
// the zero value of each is its default, and this package reads no
// environment. Package github.com/seed417024ea/mcpcore/app does:
// app.ConfigFromEnv reads the variables, once: MCP_SESSION_MODE (stateful
// or stateless), MCP_LOG_LEVEL (debug, info, notice, warning, error),
// MCP_LOG_FORMAT (text or json), those below, and what only a program
// uses, in app.Config: MCP_TRANSPORT_TYPE (stdio or http), MCP_HTTP_HOST
// (127.0.0.1), MCP_HTTP_PORT (3010). app.Main, which a program's main
// calls, reads them with it, then builds the server and serves it until
// SIGINT or SIGTERM, over stdio ([Server.Serve]) or HTTP
// ([Server.Handler]); a bad value stops the program at start, named.
//
// # Serving over HTTP
//
// [Server.Handler] is the whole HTTP surface. MCP_AUTH_MODE chooses how
// callers authenticate, through [ServerOptions].HTTPAuth, which package app
// builds with package mcphttp (the one that links a JWT library): none
// (the default, on a loopback address only, unless
// MCP_AUTH_ALLOW_UNAUTHENTICATED=true), jwt (HS256 tokens of
// MCP_AUTH_SECRET_KEY, or RS256 of MCP_AUTH_PUBLIC_KEY) or oauth (tokens of
// OAUTH_ISSUER_URL, verified with its JWKS, for the audience OAUTH_AUDIENCE
// or MCP_SERVER_RESOURCE_IDENTIFIER). A missing or bad token gets HTTP 401
// with WWW-Authenticate naming the protected-resource metadata
// ([ResourceMetadataPath]); a token without MCP_AUTH_REQUIRED_SCOPES gets
// 403 insufficient_scope. The Scopes of a [Tool], [Resource] or [Prompt]
// are checked before its handler, [Context.RequireScopes] checks scopes
// computed at run time, and [Context.Auth] tells the handler who calls.
//
// Limits, each refused with a JSON-RPC error and logged: the body
// (MCP_HTTP_MAX_BODY_BYTES, 4 MiB, read within 30 s), the sessions
// (MCP_HTTP_MAX_SESSIONS, 1000, closed after MCP_SESSION_IDLE_TIMEOUT or
// 30 minutes without an open request), each token subject's share of them
// (MCP_HTTP_MAX_SESSIONS_PER_SUBJECT, a tenth), the calls in flight per
// session (MCP_MAX_CALLS_PER_SESSION, 64) and in the whole server, stateless
// mode included (MCP_MAX_CALLS_IN_FLIGHT, 512; a RateLimited failure beyond
// either). On every transport, the bytes of one answer
// (MCP_MAX_RESULT_BYTES, 8 MiB) and the length of a resource URI
// ([MaxURIBytes]) are bounded too. The probes
// [LivenessPath] and [ReadinessPath], the landing page at / and the server
// card at [CardPath] are served outside authentication.
package mcpcore
