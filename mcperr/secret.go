package mcperr

import "github.com/seed417024ea/mcpcore/internal/redact"

// KeepSecret declares values this process holds that must never leave it,
// such as the API key a service reads from its own configuration: no
// pattern can tell that an upstream's "the key abc… is not allowed to read
// this file" quotes it, and a service that passes that message on as its
// error's message would send it. From then on a server built on mcpcore
// replaces each value by "[REDACTED]" wherever it appears, whatever
// surrounds it, as it is and in its JSON-escaped, URL-escaped and base64
// forms: in every byte it sends over stdio and Streamable HTTP (results,
// errors, notifications, progress, log notifications), in every record of
// its logger ([TryCatch] and [Retry] records included) and in the spans it
// exports.
//
//	func NewClient(cfg Config) (*Client, error) {
//		if err := mcperr.KeepSecret(cfg.APIKey); err != nil {
//			return nil, err
//		}
//		…
//	}
//
// A value shorter than 8 bytes is refused, and so is the empty string:
// the error, a ConfigurationError, says why, naming a value by its place
// among values, never by its text. A value that short turns up by chance in ordinary text, which
// masking it would alter. The other values of the call are kept all the
// same. Values are kept for the life of the process, by every server in
// it; keeping one twice costs nothing more.
//
// A server's own secrets need no call: mcpcore.ServerOptions.Secrets, and
// the keys of its configuration, are kept when the server is built.
func KeepSecret(values ...string) error {
	if err := redact.Keep(values...); err != nil {
		return New(CodeConfigurationError, "mcperr.KeepSecret: "+err.Error(), WithCause(err))
	}
	return nil
}
