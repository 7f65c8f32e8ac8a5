package mcperr

import "github.com/seed417024ea/mcpcore/internal/redact"

// Scrub returns s with its secrets replaced by "[REDACTED]", as [From] does
// to the message of every error it classifies. Use it to build a message
// for the client from text you do not control, such as an upstream's error
// string:
//
//   - the value of a sensitive key (password, token, secret, apiKey,
//     credential, jwt, ssn, cvv, authorization, cookie, clientSecret,
//     privateKey, and keys with such a word, like session_token) in the
//     forms key=value, key: value and JSON "key": "value";
//   - the credentials of any URL, and its sensitive query parameters;
//   - the credentials after "Bearer" and "Basic";
//   - JWTs and API keys with well-known prefixes (sk-, sk_live_, ghp_,
//     github_pat_, xoxb-, AKIA, …).
//
// Scrub returns s itself, without allocating, when there is nothing to
// replace; scrubbing twice changes nothing more.
func Scrub(s string) string { return redact.String(s) }
