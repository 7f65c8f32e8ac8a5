package mcperr

import (
	"context"
	"log/slog"
)

// loggerKey carries the logger of the request a context belongs to.
type loggerKey struct{}

// requestLogger is what WithRequestLogger puts in a context.
type requestLogger struct {
	get func() *slog.Logger
}

// WithRequestLogger returns a context whose [TryCatch] and [Retry] records,
// when their options name no logger, go to log: the logger of the request
// being served, with its request id, session and trace. A server built on
// mcpcore does this for every call; a program of your own may do it for
// its requests.
//
// Within such a request, the failure is reported once, by whoever answers
// the request (mcpcore's dispatch logs one record at the failure's declared
// level). So TryCatch writes its own record at debug there, not at error:
// one failure, one record at its level.
func WithRequestLogger(ctx context.Context, log *slog.Logger) context.Context {
	return WithRequestLoggerFunc(ctx, func() *slog.Logger { return log })
}

// WithRequestLoggerFunc is [WithRequestLogger] for a logger that get builds
// when a record needs it, and not before: most requests log nothing, and
// a logger with the request's attributes costs its allocations each time.
// get may be called more than once, and from several goroutines.
func WithRequestLoggerFunc(ctx context.Context, get func() *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, requestLogger{get})
}

// loggerFor returns the logger a record about ctx goes to, when the options
// gave none, and whether it is a request's (see WithRequestLogger).
func loggerFor(ctx context.Context) (*slog.Logger, bool) {
	if ctx != nil {
		if r, ok := ctx.Value(loggerKey{}).(requestLogger); ok && r.get != nil {
			if log := r.get(); log != nil {
				return log, true
			}
		}
	}
	return slog.Default(), false
}
