package mcperr

import (
	"context"
	"log/slog"

	"github.com/seed417024ea/mcpcore/internal/reqlog"
)

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
	return reqlog.WithFunc(ctx, func() *slog.Logger { return log })
}

// loggerFor returns the logger a record about ctx goes to, when the options
// gave none, and whether it is a request's (see WithRequestLogger).
func loggerFor(ctx context.Context) (*slog.Logger, bool) {
	if log := reqlog.From(ctx); log != nil {
		return log, true
	}
	return slog.Default(), false
}
