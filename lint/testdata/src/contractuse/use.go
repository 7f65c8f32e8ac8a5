// Package contractuse's definitions declare contracts of package
// contractlib, read through its facts.
package contractuse

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"contractlib"
	"contractlib/errs"
)

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item matched.", Recovery: "Try the search tool to find valid IDs first."}

var neverRaised = mcpcore.Failure{Reason: "never_raised", Code: mcperr.CodeInvalidParams, When: "Never.", Recovery: "There is nothing to recover from here at all."}

type in struct{ ID string }
type out struct{ V string }

// A variable of another package: what it declares is known, and what it
// does not is reported; its entries are judged per tool, as the tool's own
// are: no tool here raises stale.
var commonTool = mcpcore.Tool[in, out]{
	Name:   "common",
	Errors: contractlib.Common, // want `error-contract-unthrown: tool common declares reason "stale"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		switch i.ID {
		case "":
			return out{}, mcperr.Forbidden("no") // want `error-contract-conformance: tool common can return Forbidden, which its contract does not declare`
		case "stale":
			return out{}, mcperr.Conflict("it moved") // want `error-contract-prefer-fail: tool common builds a Conflict error that its contract declares \("stale"\) without ctx.Fail`
		}
		return out{}, ctx.Fail(errs.Busy, "Busy", ctx.RecoveryFor(errs.Busy))
	},
}

// append of another package's variable and an entry of this one.
var ownTool = mcpcore.Tool[in, out]{
	Name:   "own",
	Errors: append(contractlib.Common, noMatch), // want `error-contract-unthrown: tool own declares reason "stale"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "" {
			return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch))
		}
		return out{}, mcperr.Unauthorized("who are you") // want `error-contract-conformance: tool own can return Unauthorized`
	},
}

// A helper of another package, given this package's entries: they are
// this definition's to raise (unthrown), and so are the helper's.
var helperTool = mcpcore.Tool[in, out]{
	Name: "helper",
	Errors: contractlib.WithCommon( // want `error-contract-unthrown: tool helper declares reason "stale"`
		noMatch,
		neverRaised, // want `error-contract-unthrown: tool helper declares reason "never_raised"`
	),
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch))
	},
}

// A helper with a Failure and a slice parameter, and one calling another:
// both read.
var pairTool = mcpcore.Tool[in, out]{
	Name:   "pair",
	Errors: contractlib.Pair(noMatch, contractlib.Common), // want `error-contract-unthrown: tool pair declares reason "stale"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "" {
			return out{}, mcperr.Forbidden("no") // want `error-contract-conformance: tool pair can return Forbidden`
		}
		return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch))
	},
}

var aroundTool = mcpcore.Tool[in, out]{
	Name:   "around",
	Errors: contractlib.Around(noMatch), // want `error-contract-unthrown: tool around declares reason "stale"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "" {
			return out{}, ctx.Fail(errs.Busy, "Busy", ctx.RecoveryFor(errs.Busy))
		}
		return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch))
	},
}

// What cannot be read is said, naming what stopped the analysis.
var loadedTool = mcpcore.Tool[in, out]{
	Name:   "loaded",
	Errors: contractlib.Loaded, // want `error-contract-unanalyzable: the Errors of tool loaded is the variable Loaded of package contractlib, whose value is the result of a call to load, whose body mcplint cannot evaluate`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, mcperr.Forbidden("no")
	},
}

var assignedTool = mcpcore.Tool[in, out]{
	Name:   "assigned",
	Errors: append(contractlib.Assigned, noMatch), // want `error-contract-unanalyzable: the Errors of tool assigned is the variable Assigned of package contractlib, which is assigned after its declaration`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, mcperr.Forbidden("no")
	},
}

var buildTool = mcpcore.Tool[in, out]{
	Name:   "build",
	Errors: contractlib.Build(), // want `error-contract-unanalyzable: the Errors of tool build is the result of a call to contractlib.Build, whose body mcplint cannot evaluate`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, mcperr.Forbidden("no")
	},
}

func init() { contractlib.Written = append(contractlib.Written, errs.Busy) }

var writtenTool = mcpcore.Tool[in, out]{
	Name:   "written",
	Errors: contractlib.Written, // want `error-contract-unanalyzable: the Errors of tool written is the variable Written of package contractlib, which this package assigns`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, mcperr.Forbidden("no")
	},
}

// An entry whose Reason is not a constant: the contract is not fully
// known, and nothing is reported on a guess.
var computedTool = mcpcore.Tool[in, out]{
	Name:   "computed",
	Errors: contractlib.Computed,
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, mcperr.Unauthorized("who are you")
	},
}

// An entry of this package that the imported contract does not hold is
// undeclared; one it holds, named through another variable, is not.
var undeclaredTool = mcpcore.Tool[in, out]{
	Name:   "undeclared",
	Errors: contractlib.Common, // want `error-contract-unthrown: tool undeclared declares reason "stale"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "" {
			return out{}, ctx.Fail(errs.Busy, "Busy", ctx.RecoveryFor(errs.Busy))
		}
		return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch)) // want `error-contract-undeclared: ctx.Fail is given Failure "no_match", which tool undeclared does not declare` `error-contract-conformance: tool undeclared can return NotFound`
	},
}
