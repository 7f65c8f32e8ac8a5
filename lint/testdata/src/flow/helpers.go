package flow

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var conflict = mcpcore.Failure{Reason: "conflict", Code: mcperr.CodeConflict, When: "The article changed.", Recovery: "Fetch the article again, then retry the edit."}

// notFound is a helper shared by tools: its Fail is checked where it
// stands for a recovery, and against each calling tool's contract.
func notFound(ctx *mcpcore.Context, id string) error {
	return ctx.Fail(missing, "No article "+id) // want `error-contract-recovery-unforwarded: this ctx.Fail sends no recovery hint`
}

func changed(ctx *mcpcore.Context) error {
	return ctx.Fail(conflict, "Changed", ctx.RecoveryFor(conflict))
}

func either(ctx *mcpcore.Context, id string) error {
	if id == "" {
		return changed(ctx)
	}
	return notFound(ctx, id)
}

var helped = mcpcore.Tool[in, out]{
	Name:   "helped",
	Errors: []mcpcore.Failure{missing},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.Full {
			return out{}, either(ctx, i.ID) // want `error-contract-undeclared: tool helped calls either, whose ctx.Fail \(helpers.go:17, in changed\) is given Failure "conflict", which tool helped does not declare` `error-contract-conformance: tool helped can return Conflict through flow.either \(raised in flow.changed\)`
		}
		return out{}, notFound(ctx, i.ID)
	},
}

var helpedToo = mcpcore.Tool[in, out]{
	Name:   "helped_too",
	Errors: []mcpcore.Failure{missing, conflict},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, either(ctx, i.ID)
	},
}

// A reason stamped by a service that no calling tool declares.
var stamped = mcpcore.Tool[in, out]{
	Name:   "stamped",
	Errors: []mcpcore.Failure{busy},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.Full {
			return out{}, svc.Unreachable(ctx) // want `error-contract-reason-undeclared: flowsvc.Client.Unreachable stamps reason "upstream_unreachble" on the errors it returns, and no definition whose handler they reach declares it \(tool stamped\)`
		}
		return out{}, svc.Throttled(ctx)
	},
}
