package redact

import "log/slog"

// Below returns the handler that h, a redacting [Handler], passes records
// on to: for a caller that has scrubbed every text of its record itself,
// each once with [String], and would only have them scanned again. ok is
// false when h is not such a handler, or sits below a WithGroup whose name
// is sensitive, where every value is redacted whatever it holds.
func Below(h slog.Handler) (inner slog.Handler, ok bool) {
	r, ok := h.(*handler)
	if !ok || r.secret {
		return nil, false
	}
	return r.inner, true
}
