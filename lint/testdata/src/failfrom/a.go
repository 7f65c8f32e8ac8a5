package failfrom

import (
	"context"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var busy = mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "The upstream throttles.", Recovery: "Wait a minute, then call the tool again."}

var gone = mcpcore.Failure{Reason: "gone", Code: mcperr.CodeNotFound, When: "The item is gone.", Recovery: "Search for the item again with the search tool."}

var unused = mcpcore.Failure{Reason: "unused", Code: mcperr.CodeConflict, When: "Never.", Recovery: "There is nothing to recover from here at all."}

var declined = mcpcore.Failure{Reason: mcpcore.ReasonConsentDeclined, Code: mcperr.CodeInvalidRequest, Severity: mcpcore.SeverityNotice,
	When: "The user declined.", Recovery: "Ask the user before calling the tool again."}

var cancelled = mcpcore.Failure{Reason: "cancelled", Code: mcperr.CodeRequestCancelled, Severity: mcpcore.SeverityInfo,
	When: "The user said no.", Recovery: "Ask the user whether to go ahead before calling again."}

type in struct{ ID string }
type out struct{ V string }

func upstream(id string) (string, error) {
	if id == "" {
		return "", mcperr.RateLimited("slow down")
	}
	return id, nil
}

// FailFrom raises the entries given whose code the error can have: busy;
// upstream never returns NotFound, so gone is not raised. upstream raises
// without a hint, so busy's declared Recovery reaches no client.
func fetch(ctx *mcpcore.Context, i in) (out, error) {
	v, err := upstream(i.ID)
	if err != nil {
		return out{}, ctx.FailFrom(err, busy, gone) // want `error-contract-recovery-unforwarded: this ctx.FailFrom maps the RateLimited through failfrom.upstream, which comes in at a.go:36, onto "busy" without a recovery hint: .*mcpcore.RecoveryFor\(ctx, entry\) where it is built`
	}
	return out{V: v}, nil
}

var fetchTool = mcpcore.Tool[in, out]{
	Name:    "fetch",
	Errors:  []mcpcore.Failure{busy, gone, unused}, // want `error-contract-unthrown: tool fetch declares reason "gone"` `error-contract-unthrown: tool fetch declares reason "unused"`
	Handler: fetch,
}

// hinted raises with the calling tool's declared hint, or a hint of its
// own: FailFrom keeps either.
func hinted(ctx context.Context, id string) (string, error) {
	switch id {
	case "":
		return "", mcperr.RateLimited("slow down", mcpcore.RecoveryFor(ctx, busy))
	case "gone":
		return "", mcperr.NotFound("gone", mcperr.WithRecovery("Search for "+id+" again."))
	}
	return id, nil
}

var fetchHinted = mcpcore.Tool[in, out]{
	Name:   "fetch_hinted",
	Errors: []mcpcore.Failure{busy, gone},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		v, err := hinted(ctx, i.ID)
		if err != nil {
			return out{}, ctx.FailFrom(err, busy, gone)
		}
		return out{V: v}, nil
	},
}

type confirm struct{ OK bool }

// Elicit fails with the declared consent_declined when the user declines,
// or with the entry OnDecline names; its hint goes out with the
// ctx.RecoveryFor given to OnDecline only.
var askTool = mcpcore.Tool[in, out]{
	Name:   "ask",
	Errors: []mcpcore.Failure{declined, cancelled},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if _, err := mcpcore.Elicit[confirm](ctx, "Sure?"); err != nil { // want `error-contract-recovery-unforwarded: this Elicit sends no recovery hint when the user declines: the declared Recovery of "consent_declined" .*; pass mcpcore.OnDecline\(entry, ctx.RecoveryFor\(entry\)\)`
			return out{}, err
		}
		if _, err := mcpcore.Elicit[confirm](ctx, "Really?", mcpcore.QuestionKey("really")); err != nil { // want `error-contract-recovery-unforwarded: this Elicit sends no recovery hint`
			return out{}, err
		}
		if _, err := mcpcore.Elicit[confirm](ctx, "Truly?", mcpcore.QuestionKey("truly"), mcpcore.OnDecline(declined, ctx.RecoveryFor(declined))); err != nil {
			return out{}, err
		}
		if _, err := mcpcore.Elicit[confirm](ctx, "Go?", mcpcore.OnDecline(cancelled)); err != nil { // want `error-contract-recovery-unforwarded: this OnDecline sends no recovery hint when the user declines: the declared Recovery of cancelled .*; pass ctx.RecoveryFor\(cancelled\)`
			return out{}, err
		}
		return out{}, nil
	},
}

// OnDecline names an entry the contract does not declare: the decline is
// then an InternalError, and never the consent_declined it declares.
var askOther = mcpcore.Tool[in, out]{
	Name:   "ask_other",
	Errors: []mcpcore.Failure{declined}, // want `error-contract-unthrown: tool ask_other declares reason "consent_declined"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		_, err := mcpcore.Elicit[confirm](ctx, "Sure?", mcpcore.OnDecline(cancelled, ctx.RecoveryFor(cancelled))) // want `error-contract-undeclared: mcpcore.OnDecline is given Failure "cancelled", which tool ask_other does not declare`
		return out{}, err
	},
}

// Without a declared consent_declined, the framework's own carries no hint
// to forward.
var askUndeclared = mcpcore.Tool[in, out]{
	Name: "ask_undeclared",
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		_, err := mcpcore.Elicit[confirm](ctx, "Sure?")
		return out{}, err
	},
}
