package mcpcore

import (
	"context"
	"log/slog"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// ContextForTest returns the Context with which a test runs tool's handler
// alone, outside a served call; mcptest.RunTool builds its Context so. A
// server never calls it, and a handler has no use for it.
//
// The Context is ctx (its deadline, values and cancellation reach the
// handler as they are), bound to tool's contract, so that [Context.Fail]
// and [Context.RecoveryFor] work as when served. Its logger writes to log
// (nil: [slog.Default]) with the operation ("tool:" and the name), redacted
// as a served call's records are. It has no client: Progress does
// nothing, and questions to the client fail with MissingClientCapability.
func ContextForTest[In, Out any](ctx context.Context, tool Tool[In, Out], log *slog.Logger) *Context {
	if log == nil {
		log = slog.Default()
	}
	const kind = "tool"
	attrs := []slog.Attr{slog.String("operation", kind+":"+tool.Name)}
	return &Context{ctx: ctx, definition: definition{kind: kind, name: tool.Name, contract: tool.Errors}, attrs: attrs,
		log: slog.New(redact.Handler(log.Handler()).WithAttrs(attrs))}
}
