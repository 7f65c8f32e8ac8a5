// Package mcperr is the error vocabulary of mcpcore: JSON-RPC error codes, one
// error type, factories, the classification of any Go error into a code, HTTP
// status mapping, and two helpers for service code, [TryCatch] and [Retry].
//
// It depends on the standard library only and knows nothing of MCP transports,
// so service packages can import it freely.
//
// # Errors
//
// An [*Error] carries a [Code], a message meant for the client, an optional
// data map that travels to the client with it, and an optional cause that
// stays on the server. Handlers and services return them and do not catch
// them; the framework renders them on the wire:
//
//	return nil, mcperr.NotFound("Item 7 not found",
//		mcperr.WithData(map[string]any{"itemId": "7"}))
//
// # Classification
//
// [From] turns any error into an [*Error] and [CodeOf] gives its code. The
// first rule that matches wins:
//
//  1. An [*Error] anywhere in the chain (errors.As) is returned as it is, code,
//     message and data intact.
//  2. An error in the chain that implements [Coder] reports its own code; a
//     code this package does not define gives InternalError.
//  3. Go's own errors, by identity (errors.Is) or type (errors.As), as the
//     table below lists.
//  4. Provider patterns (cloud SDKs, HTTP clients, databases, LLM APIs), then
//     common patterns: case-insensitive regular expressions matched against the
//     error's message and then against the type name of each error in its
//     chain, so a type named TimeoutError classifies as Timeout. The tables are
//     those of the TypeScript framework mcp-ts-core, so that its users find
//     the same classification; for example
//     "status code 429" gives RateLimited, "ECONNREFUSED" ServiceUnavailable,
//     "not found" NotFound, "invalid" ValidationError and "timed out" Timeout.
//  5. Anything else is InternalError.
//
// Every walk of an error tree is bounded: 32 errors deep and 64 in all.
// An error whose tree goes on past that (an Unwrap that returns its
// receiver, a join that contains itself), and one whose Error method
// panics or whose text holds what fmt printed of a panic ("%!v(PANIC=…)",
// which fmt.Errorf writes when a wrapped error's Error panics), is an
// InternalError; the message of the last two is [WithheldMessage], so that
// a panic's value never reaches a client.
//
// Go's own errors (rule 3), checked in this order:
//
//	context.Canceled                                    RequestCancelled
//	*net.DNSError                                       ServiceUnavailable
//	context.DeadlineExceeded, os.ErrDeadlineExceeded,
//	any net.Error whose Timeout() is true               Timeout
//	syscall.ECONNREFUSED, syscall.ECONNRESET,
//	io.ErrUnexpectedEOF                                 ServiceUnavailable
//	fs.ErrNotExist, sql.ErrNoRows                       NotFound
//	fs.ErrPermission                                    Forbidden
//	fs.ErrExist                                         Conflict
//	*json.SyntaxError, *json.UnmarshalTypeError,
//	*xml.SyntaxError                                    SerializationError
//	*strconv.NumError                                   ValidationError
//
// io.ErrUnexpectedEOF is what io.ReadAll, io.ReadFull and json.Decoder
// return for a body cut short, in a server almost always an upstream's
// response whose connection dropped mid-body: ServiceUnavailable, which
// [Retry] retries, since a second request can get the body whole. A
// complete body that does not parse (json.Unmarshal's "unexpected end of
// JSON input" included) is a *json.SyntaxError: SerializationError.
//
// An error classified by rules 2 to 5 becomes an [*Error] with the code, the
// error's message scrubbed of secrets, no data (classification never invents
// data that could leak to a client), and the original error as its cause.
//
// # What reaches the wire
//
// An [*Error] leaves the process only as a JSON-RPC error object,
// {"code":…,"message":…,"data":…}, with "data" present only when data was
// set. Exactly this goes, and nothing else:
//
//   - code: the error's code.
//   - message: for an error built with [New], a factory or [FromResponse],
//     the message as it was written, since it was set deliberately; a server
//     of mcpcore still scrubs it, and every string of its data, on its way
//     out, so that a service's own message that quotes an upstream URL
//     cannot carry an api_key to the client. For an error [From]
//     classified (rules 2 to 5), the Go error's message, scrubbed by [Scrub]
//     first: the values of sensitive keys (password=…, "api_key": …),
//     credentials and sensitive query parameters in URLs, Bearer and Basic
//     credentials, JWTs and well-known API keys become "[REDACTED]". The
//     classifier reads the message before it is scrubbed. [TryCatch] builds
//     its errors the same way.
//   - data: only what was set with [WithData] or [WithRecovery], or by
//     [FromResponse]: the status, its text, Retry-After, the request URL
//     without credentials, fragment or sensitive query values, and an
//     excerpt of the body, redacted before it is cut. A top-level "auth" key
//     is removed when the error is built or decoded.
//
// Causes, stacks and diagnostics go to logs only, and the record [TryCatch]
// writes is redacted too.
//
// # HTTP
//
// [CodeForHTTPStatus] maps an upstream's status to a code (404 NotFound, 429
// RateLimited, 502 and 503 ServiceUnavailable, 504 Timeout, …) and
// [FromResponse] builds the error for a non-2xx response, with the status,
// a bounded excerpt of the body and Retry-After in its data. [HTTPStatus]
// maps the other way, for errors answered over HTTP.
//
// # Services
//
// [TryCatch] runs a service operation and, when it fails, logs one
// structured record (operation, context, redacted input, code, original type)
// and returns the failure as an [*Error]; it never swallows an error.
// Within a request mcpcore serves, that record is at debug: the server logs
// the failure itself, at the level its contract declares.
// [Retry] retries an operation while its failure is transient
// (ServiceUnavailable, Timeout, RateLimited), with exponential backoff and
// jitter, honouring data.retryable and data.retryAfter and stopping at once
// when the context ends.
//
// [KeepSecret] declares a secret a service read from its own
// configuration, such as an upstream's API key: a server built on mcpcore
// masks it wherever it appears, in any form, in everything it sends, logs
// and traces, even in an upstream's message that quotes it.
package mcperr
