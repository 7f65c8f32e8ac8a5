//go:build race

package redact

// raceEnabled: under the race detector sync.Pool drops items at random, so
// allocation counts through slog's pooled handlers are not repeatable.
const raceEnabled = true
