// Package hook lets the test kit (mcptest) build what only package mcpcore
// can: a handler's Context outside a served call. mcpcore sets the function
// when it is initialised; nothing else should use it.
package hook

import (
	"context"
	"log/slog"
)

// NewContext returns a *mcpcore.Context for a handler of the given kind
// ("tool", "resource" or "prompt") and name, bound to contract (a
// []mcpcore.Failure) and logging to log, whose context.Context is ctx.
var NewContext func(ctx context.Context, kind, name string, contract any, log *slog.Logger) any
