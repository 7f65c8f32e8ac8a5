// Package redact owns the rules that keep secrets out of what mcpcore sends
// and logs, so that error messages, upstream bodies, URLs and log records are
// all judged by one implementation.
//
//   - [Key] says whether a name (a map key, a log attribute, a query
//     parameter, a header) names a secret; [Marker] is what replaces its
//     value.
//   - [Tree] (in place), [Copy] (a copy, for a value that belongs to
//     someone else) and [JSON] (any value, through encoding/json) redact
//     structured values by key and scrub their strings, at any depth;
//     [Encoded] does the same to JSON text without decoding it into a tree,
//     and [Value] gives what Encoded makes of a value's encoding, for the
//     common shapes of failure data, in one walk of the value.
//   - [String] scrubs free text: values of sensitive keys, URL credentials
//     and sensitive query parameters, bearer tokens, PEM private keys and
//     token-shaped words.
//   - [URL] renders a URL without credentials or secret parameters.
//   - [Handler] wraps a slog.Handler so that every record it handles is
//     redacted by key at any depth and scrubbed as text.
//   - [Keep] takes the secrets the process knows it holds (its keys and
//     passwords), and [Mask] and [MaskBytes] replace them, in every form
//     they travel in, wherever they stand: in what the process sends, in
//     its log records (Handler) and in its spans.
//
// The package depends on the standard library only. It is deliberately
// conservative: it would rather replace a harmless value that sits under a
// sensitive key ("refresh token: 401 Unauthorized" loses "401
// Unauthorized", "primary key: id" loses "id") than let a secret through.
package redact
