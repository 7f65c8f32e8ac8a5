package shared

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var busy = mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "The upstream throttles.", Recovery: "Wait a minute, then call the tool again.", ThrownBy: mcpcore.ThrownByService}

var down = mcpcore.Failure{Reason: "down", Code: mcperr.CodeServiceUnavailable, When: "The upstream is down.", Recovery: "Wait a few minutes, then call the tool again.", ThrownBy: mcpcore.ThrownByService}

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item matched.", Recovery: "Search for the item again with the search tool."}

// serviceErrors is the service contract every tool shares.
var serviceErrors = []mcpcore.Failure{busy, down}

// withService is a tool's own entries, then the service's.
func withService(own ...mcpcore.Failure) []mcpcore.Failure {
	return append(own, serviceErrors...)
}

type in struct{ ID string }
type out struct{ V string }

// A mistake behind a shared contract is still caught: Forbidden is not in
// it.
var fetchTool = mcpcore.Tool[in, out]{
	Name:   "fetch",
	Errors: serviceErrors,
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "" {
			return out{}, mcperr.Forbidden("no") // want `error-contract-conformance: tool fetch can return Forbidden`
		}
		return out{V: i.ID}, nil
	},
}

// Through a helper that appends: an undeclared entry, and a clean raise.
var searchTool = mcpcore.Tool[in, out]{
	Name:   "search",
	Errors: withService(noMatch),
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "" {
			return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch))
		}
		return out{}, ctx.Fail(busy, "Busy", ctx.RecoveryFor(busy))
	},
}

// A clean tool on the shared contract stays silent.
var listTool = mcpcore.Tool[in, out]{
	Name:   "list",
	Errors: withService(),
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, ctx.Fail(down, "Down", ctx.RecoveryFor(down))
	},
}

func loadContract() []mcpcore.Failure {
	var fs []mcpcore.Failure
	fs = append(fs, busy)
	return fs
}

// What mcplint cannot evaluate is said once, at the Errors field.
var opaqueTool = mcpcore.Tool[in, out]{
	Name:   "opaque",
	Errors: loadContract(), // want `error-contract-unanalyzable: .*loadContract`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, mcperr.Forbidden("no")
	},
}
