package contractsvc

import (
	"context"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"svcdeep"
)

// Shapes that must stay silent: each raises or handles what it declares in
// a way the facts do not follow.

var unknownID = mcpcore.Failure{Reason: "unknown_id", Code: mcperr.CodeInvalidParams, When: "The ID is unknown.", Recovery: "List the items with the list tool, then pick an ID."}

// A reused err: svcdeep.Get's Conflict is mapped to a declared failure,
// and the err returned later is another call's.
func reused(ctx *mcpcore.Context, i in) (out, error) {
	_, err := svcdeep.Get(ctx, i.ID)
	if err != nil {
		return out{}, ctx.Fail(unknownID, "", ctx.RecoveryFor(unknownID), mcperr.WithCause(err))
	}
	err = svcdeep.Down()
	if err != nil {
		return out{}, err
	}
	return out{}, nil
}

var reusedTool = mcpcore.Tool[in, out]{Name: "reused", Errors: []mcpcore.Failure{unknownID}, Handler: reused}

// A handler that branches on a code handles it.
func branching(ctx *mcpcore.Context, i in) (out, error) {
	_, err := svcdeep.Get(ctx, i.ID)
	if err != nil {
		var e *mcperr.Error
		if e != nil && e.Code() == mcperr.CodeConflict {
			return out{}, ctx.Fail(unknownID, "", ctx.RecoveryFor(unknownID))
		}
		return out{}, err
	}
	return out{}, nil
}

var branchingTool = mcpcore.Tool[in, out]{Name: "branching", Errors: []mcpcore.Failure{unknownID, throttled}, Handler: branching}

// Errors set after the literal: the Fail is declared.
func late() mcpcore.Tool[in, out] {
	t := mcpcore.Tool[in, out]{Name: "late", Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, ctx.Fail(unknownID, "", ctx.RecoveryFor(unknownID))
	}}
	t.Errors = []mcpcore.Failure{unknownID}
	return t
}

// An entry passed to a helper is raised there.
var viaHelper = mcpcore.Failure{Reason: "via_helper", Code: mcperr.CodeInvalidParams, When: "Raised by a helper.", Recovery: "List the items with the list tool, then pick an ID."}

func failWith(ctx *mcpcore.Context, f mcpcore.Failure, msg string) error {
	return ctx.Fail(f, msg, ctx.RecoveryFor(f))
}

var helperTool = mcpcore.Tool[in, out]{
	Name:   "helper",
	Errors: []mcpcore.Failure{viaHelper},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, failWith(ctx, viaHelper, "no")
	},
}

var archived = mcpcore.Failure{Reason: "archived_item", Code: mcperr.CodeNotFound, When: "The item is archived.", Recovery: "Restore the item with the restore tool first."}

var reasonsTool = mcpcore.Tool[in, out]{
	Name:   "reasons",
	Errors: []mcpcore.Failure{noMatch, archived},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "log" {
			// Only logged: never returned.
			_ = mcperr.NotFound("cache miss")
		}
		if i.ID == "retry" {
			// The Retry callback's error is returned by the handler: the
			// factory raises a declared failure without ctx.Fail.
			_, err := mcperr.Retry(ctx, mcperr.RetryOptions{}, func(ctx context.Context) (int, error) {
				return 0, mcperr.NotFound("not yet", mcperr.WithData(map[string]any{"reason": "archived_item"})) // want `error-contract-prefer-fail: tool reasons builds a NotFound error that its contract declares \("archived_item"\)`
			})
			return out{}, err
		}
		// A factory naming a reason of its own that the contract does not
		// declare is another failure: not this entry's.
		return out{}, ctx.Fail(noMatch, "No", ctx.RecoveryFor(noMatch), mcperr.WithCause(mcperr.NotFound("gone", mcperr.WithData(map[string]any{"reason": "elsewhere"}))))
	},
}

// A method of a generic type as a handler is read too.
type repo[T any] struct{}

func (r *repo[T]) get(ctx *mcpcore.Context, i in) (out, error) {
	return out{}, ctx.Fail(noMatch, "No") // want `error-contract-recovery-unforwarded`
}

var genericTool = mcpcore.Tool[in, out]{Name: "generic", Errors: []mcpcore.Failure{noMatch}, Handler: (&repo[int]{}).get}
