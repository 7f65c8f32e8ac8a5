// Package redact owns the rules that keep secrets out of what mcpcore sends
// and logs, so that error messages, upstream bodies, URLs and log records are
// all judged by one implementation.
//
//   - [Key] says whether a name (a map key, a log attribute, a query
//     parameter) names a secret; [Marker] is what replaces its value.
//   - [Tree] and [JSON] redact structured values by key, at any depth.
//   - [String] scrubs free text: values of sensitive keys, URL credentials
//     and sensitive query parameters, bearer tokens and token-shaped words.
//   - [URL] renders a URL without credentials or secret parameters.
//   - [Handler] wraps a slog.Handler so that every record it handles is
//     redacted by key at any depth and scrubbed as text.
//
// The package depends on the standard library only. It is deliberately
// conservative: it would rather replace a harmless value that sits under a
// sensitive key ("refresh token: 401 Unauthorized" loses the 401) than let
// a secret through.
package redact
