// Package redact owns the rules that keep secrets out of what mcpcore sends
// and logs, so that error messages, upstream bodies, URLs and log records are
// all judged by one implementation.
//
//   - [Key] says whether a name (a map key, a log attribute, a query
//     parameter, a header) names a secret; [Marker] is what replaces its
//     value.
//   - [Tree] (in place), [Copy] (a copy, for a value that belongs to
//     someone else) and [JSON] (any value, through encoding/json) redact
//     structured values at any depth: keys and strings are scrubbed as text,
//     and the value of a sensitive key is judged by its shape; [Encoded]
//     does the same to JSON text without decoding it into a tree, and
//     [Value] gives what Encoded makes of a value's encoding, for the
//     common shapes of failure data, in one walk of the value.
//   - [String] scrubs free text: tokens of known formats, long random
//     base64, PEM private keys, URL credentials, webhook URLs, the
//     credentials of authorization schemes and cookies, and the values of
//     sensitive keys that look like credentials.
//   - [URL] renders a URL without credentials or secret parameters.
//   - [Handler] wraps a slog.Handler so that every record it handles is
//     redacted the same way.
//   - [Keep] takes the secrets the process knows it holds (its keys and
//     passwords), and [Mask] and [MaskBytes] replace them, in every form
//     they travel in, wherever they stand: in what the process sends, in
//     its log records (Handler) and in its spans.
//
// The package depends on the standard library only. It judges a value by
// its shape, not by the word before it: a value after a sensitive key goes
// when it looks like a credential (one token-like word, a quoted word, a
// passphrase), and stays when it is prose ("Invalid password: it must have
// at least 8 characters."), a status ("token: expired"), a placeholder
// ("api_key: <your-api-key>") or a name ("primary key: id"). Text that
// holds no secret comes out as it went in. The price is a passphrase
// written bare in prose ("password = correct horse battery") and a short
// all-letter word after "is" ("the password is x"), which read as prose
// and stay; a labelled corpus in testdata/corpus holds the rules to their
// figures.
package redact
