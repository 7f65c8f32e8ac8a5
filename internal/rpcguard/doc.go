// Package rpcguard stands between a newline-delimited JSON-RPC 2.0 stream
// (stdio, a pipe, a socket) and the MCP SDK; its [Check] applies the same
// rules to a message received whole, such as the body of an HTTP POST.
// [Guard.Transport] is the SDK's connection over the stream: it hands the
// SDK each valid message decoded from what the check parsed.
//
// The SDK ends the whole connection on the first line it cannot decode (and
// on a mere space after a JSON value), and answers some ids it can decode
// under another id (1.5 as 1, a 30-digit number as -9223372036854775808).
// The guard reads the stream line by line, passes on every message the SDK
// can take safely, and answers every
// other line itself, on the same writer and under the same lock as the SDK's
// own messages, so that lines never interleave. The connection then goes on
// serving.
//
// # What the guard answers
//
// Every answer is {"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}.
//
//   - -32700 Parse error: a line that is not one JSON value (invalid JSON,
//     or data after the value); a line longer than the line limit (16 MiB
//     by default; the guard keeps the first 16 MiB for the id and discards
//     the rest as it reads it); nesting deeper than 1,000 levels, found by
//     a scan before anything is decoded.
//   - -32600 Invalid Request: JSON that is not an object or an array of
//     objects; an empty array; a member given twice; "jsonrpc" other than
//     "2.0"; an "id" that is not a string, a whole number or null, or a
//     whole number that the SDK would not echo exactly (beyond int64, or
//     not exact in a float64: the SDK reads ids through float64); a string
//     "id" that is not valid UTF-8 (the SDK would echo U+FFFD); a "method"
//     that is not a string; a response (no "method") without an id, or
//     without exactly one of "result" and an "error" object with an integer
//     "code" and a string "message"; a request whose id is still in use by
//     a pending request of this connection; a request other than
//     initialize, ping and server/discover before any initialize, unless
//     it carries its protocol version in params._meta as 2026-07-28
//     requests do (the SDK answers it with code 0, which is no JSON-RPC
//     code). [BeforeInitialize] applies this rule to an HTTP request sent
//     without a session.
//
// The answer carries the request's id when the line is a request (it has a
// "method" and no "result" or "error"), its id is valid, given once (an
// object with two "id" members names no request: either could be the one
// its sender reads) and not in use by a pending request, and the id could
// be read: for a line that is not valid JSON or is too long or too deep,
// from the tokens before the fault, within its first 64 KiB. Otherwise the
// id is null. An id that belongs to another
// request is never used, so that no answer is taken for someone else's.
// Blank lines are skipped.
//
// # Batches
//
// A JSON array is a JSON-RPC batch. The SDK accepts batches only before the
// negotiated protocol version reaches 2025-06-18 (it ends the connection on
// one after that), and it loses or mishandles notifications inside a batch
// (it waits for an answer to them, and ends the connection on two). So:
//
//   - [] is answered with one -32600 error, id null.
//   - Once initialize has answered 2025-06-18 or later, or while an
//     initialize request has not been answered yet (the version is not
//     known), a batch is refused: each request in it is answered -32600
//     under its id, its notifications and responses are dropped.
//   - Otherwise each element is checked as a line would be. Invalid elements
//     are answered at once, in one array. The valid requests (with an id)
//     go on to the SDK as one batch, unchanged if the batch had nothing
//     else, and the SDK answers them in one array of its own; valid
//     notifications and responses go on as single lines after it. JSON-RPC
//     2.0 asks for a single answer array; holding the guard's errors back
//     until the SDK answers would hold them back as long as a slow request
//     of the batch runs, so every request gets exactly one answer, in
//     one of two arrays. An id given twice in a batch, or still in use by an
//     earlier request, is an invalid element (the SDK ends the connection on
//     both).
//
// # Answers without a code
//
// The SDK answers a request cancelled while it waits in its session's
// queue by itself, before any handler or middleware, with
// {"code":0,"message":"context canceled"}: code 0 is no JSON-RPC code.
// The connection gives it one as it writes it ([RealCode], which the HTTP
// endpoint applies too): -32011 RequestCancelled, "The request was
// cancelled.", as a request cancelled while its handler runs is answered;
// any other error the SDK sends with code 0, -32603 with a message of its
// own. The request is answered rather than dropped, though MCP lets a
// server leave a cancelled request unanswered: every request gets exactly
// one answer, which frees its id (see below).
//
// # Pending requests
//
// The guard also knows which requests are waiting for their answer: a
// request with an id is pending from the moment it is read until an answer
// with that id is written (the connection knows each answer's id). A
// cancelled request stays pending: the SDK still answers it (its client
// drops the answer), and keeps the id until then, so a new request with
// that id before the answer is written is refused, never answered with the
// cancelled one's result. [Guard.Wait] lets a server that shuts down wait
// until every answer is written, which the SDK does a moment after the
// handler returns; [Guard.HoldEOF] lets it do so before the SDK sees the
// end of the input (after which the SDK writes nothing); and [Guard.Cut]
// lets it end a session that a handler ignoring its cancellation would
// hold open, so that the late answer never reaches a stream the server let
// go of.
package rpcguard
