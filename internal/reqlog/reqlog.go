// Package reqlog carries, in a request's context, the logger of the request
// being served: mcpcore puts it there for every call, and mcperr's TryCatch
// and Retry write their records to it. The logger is built when a record
// needs it, and not before: most requests log nothing, and a logger with
// the request's attributes costs its allocations each time.
package reqlog

import (
	"context"
	"log/slog"
)

// key carries the request's logger.
type key struct{}

// WithFunc returns a context whose request logger get builds. get may be
// called more than once, and from several goroutines.
func WithFunc(ctx context.Context, get func() *slog.Logger) context.Context {
	return context.WithValue(ctx, key{}, get)
}

// Is reports whether k is the key under which From looks for a request's
// logger: a context that answers Value(k) with a func() *slog.Logger, as
// mcpcore's Context does for a served call, carries it without WithFunc.
func Is(k any) bool {
	_, ok := k.(key)
	return ok
}

// From returns the logger of the request ctx belongs to, or nil.
func From(ctx context.Context) *slog.Logger {
	if ctx == nil {
		return nil
	}
	if get, ok := ctx.Value(key{}).(func() *slog.Logger); ok && get != nil {
		return get()
	}
	return nil
}
