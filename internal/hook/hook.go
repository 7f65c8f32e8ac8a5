// Package hook lets the test kit (mcptest) build what only package mcpcore
// can: a handler's Context outside a served call. mcpcore sets the function
// when it is initialised; nothing else should use it.
//
// It is a bridge between two packages of this module, because Go has no
// friend packages: an exported constructor of a Context would let any
// program build one outside a call, with no request, session or span, and
// mcptest cannot import mcpcore's internals. The result is an any, since
// this package cannot name *mcpcore.Context without an import cycle;
// mcptest asserts it.
package hook

import (
	"context"
	"log/slog"

	"github.com/seed417024ea/mcpcore/contract"
)

// NewContext returns a *mcpcore.Context for a handler of the given kind
// ("tool", "resource" or "prompt") and name, bound to its contract and
// logging to log, whose context.Context is ctx.
var NewContext func(ctx context.Context, kind, name string, contract []contract.Failure, log *slog.Logger) any
