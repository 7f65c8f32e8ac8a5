// Package mcpclient is the client side of mcpcore's error contract: it turns
// what an MCP server sent back into the [*mcperr.Error] the server raised, so
// that a Go program calling an mcpcore server can use errors.As, switch on
// [mcperr.CodeOf] or data.reason, and retry what the server declared
// retryable, as the server's own code does.
//
// It shares its vocabulary with the server through package
// [github.com/seed417024ea/mcpcore/contract], not the server package itself,
// so that a client links none of the server's transports, authentication or
// telemetry.
//
// It works on the sessions of the official MCP Go SDK
// ([github.com/modelcontextprotocol/go-sdk/mcp.ClientSession]) and on what
// they return:
//
//   - [ErrorOf] reads the error of a failed tool call (a result with isError
//     true) from its structuredContent.error, or from its text when the
//     structured content is missing;
//   - [FromRPC] turns the error a session method returned (a JSON-RPC error
//     answer, a cancelled context, a closed connection) into an
//     [*mcperr.Error];
//   - [Call] calls a tool and decodes its structured content into a Go
//     value, or returns the [*mcperr.Error]; [ReadResource] and [GetPrompt]
//     do the same for resources and prompts;
//   - [Contract] and [Contracts] read back the error contract a tool
//     publishes in tools/list, as [contract.Failure] values (the type
//     mcpcore.Failure names);
//   - [RetryByContract] retries a call with [mcperr.Retry]'s backoff and Retry-After
//     rules, but only when the server said the failure is retryable, as
//     [Retryable] judges it;
//   - [NewClient], [Transport] and [HTTPClient] make a client of the tasks
//     extension (io.modelcontextprotocol/tasks, protocol 2026-07-28): it
//     declares the extension, keeps the task a server answers a long call
//     with, and names the task in the Mcp-Name header of tasks/* over
//     HTTP; [Call] then polls the task to its end, and [GetTask],
//     [UpdateTask] and [CancelTask] send the extension's methods.
//
// # What comes back
//
// An error read from the wire has the code, the message and the data the
// server sent, and nothing else: causes, stacks and panic values stay in the
// server's log. Data values are what encoding/json gives for an any: numbers
// are float64, objects map[string]any, arrays []any. So data.retryable is a
// bool, data.reason a string, and [*mcperr.Error.RecoveryHint] works, but
// an integer the server put in data reads back as a float64.
//
// # What is retried
//
// The server's word decides, never the code alone. [RetryByContract] retries a failure
// only when its data.retryable is true or its entry in the tool's published
// contract (same reason and code) is declared [contract.Retryable], and never
// when either says no. A ServiceUnavailable or Timeout the server did not
// mark retryable, and every failure of the client's own (a closed
// connection, a cancelled context, a result that does not decode), is
// returned at once.
package mcpclient
