package mcpcore

import (
	"context"
	"log/slog"

	"github.com/seed417024ea/mcpcore/internal/hook"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

func init() {
	hook.NewContext = func(ctx context.Context, kind, name string, contract any, log *slog.Logger) any {
		c, _ := contract.([]Failure)
		return detachedContext(ctx, kind, name, c, log)
	}
}

// detachedContext is the Context of a handler run outside a served call,
// by the test kit: it has its contract and a logger, and no client to talk
// to (Progress does nothing; questions fail with MissingClientCapability).
func detachedContext(ctx context.Context, kind, name string, contract []Failure, log *slog.Logger) *Context {
	attrs := []slog.Attr{slog.String("operation", kind+":"+name)}
	// Redacted as a served call's records are.
	log = slog.New(redact.Handler(log.Handler()).WithAttrs(attrs))
	return &Context{ctx: ctx, kind: kind, name: name, contract: contract, log: log, attrs: attrs}
}
