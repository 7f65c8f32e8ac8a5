package failfrom

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var busy = mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "The upstream throttles.", Recovery: "Wait a minute, then call the tool again."}

var gone = mcpcore.Failure{Reason: "gone", Code: mcperr.CodeNotFound, When: "The item is gone.", Recovery: "Search for the item again with the search tool."}

var unused = mcpcore.Failure{Reason: "unused", Code: mcperr.CodeConflict, When: "Never.", Recovery: "There is nothing to recover from here at all."}

var declined = mcpcore.Failure{Reason: mcpcore.ReasonConsentDeclined, Code: mcperr.CodeInvalidRequest, Severity: mcpcore.SeverityNotice,
	When: "The user declined.", Recovery: "Ask the user before calling the tool again."}

type in struct{ ID string }
type out struct{ V string }

func upstream(id string) (string, error) {
	if id == "" {
		return "", mcperr.RateLimited("slow down")
	}
	return id, nil
}

// FailFrom raises the entries given whose code the error can have: busy;
// upstream never returns NotFound, so gone is not raised.
func fetch(ctx *mcpcore.Context, i in) (out, error) {
	v, err := upstream(i.ID)
	if err != nil {
		return out{}, ctx.FailFrom(err, busy, gone) // want `error-contract-recovery-unforwarded: this ctx.FailFrom sends no declared recovery hint: .*; call ctx.FailFromWithRecovery`
	}
	return out{V: v}, nil
}

var fetchTool = mcpcore.Tool[in, out]{
	Name:    "fetch",
	Errors:  []mcpcore.Failure{busy, gone, unused}, // want `error-contract-unthrown: tool fetch declares reason "gone"` `error-contract-unthrown: tool fetch declares reason "unused"`
	Handler: fetch,
}

type confirm struct{ OK bool }

// Elicit fails with the declared consent_declined when the user declines;
// its hint goes out with RecoveryOnDecline only.
var askTool = mcpcore.Tool[in, out]{
	Name:   "ask",
	Errors: []mcpcore.Failure{declined},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if _, err := mcpcore.Elicit[confirm](ctx, "Sure?"); err != nil { // want `error-contract-recovery-unforwarded: this Elicit sends no recovery hint when the user declines: the declared Recovery of "consent_declined" .*; pass mcpcore.RecoveryOnDecline\(\)`
			return out{}, err
		}
		if _, err := mcpcore.Elicit[confirm](ctx, "Really?", mcpcore.QuestionKey("really")); err != nil { // want `error-contract-recovery-unforwarded: this Elicit sends no recovery hint`
			return out{}, err
		}
		if _, err := mcpcore.Elicit[confirm](ctx, "Truly?", mcpcore.QuestionKey("truly"), mcpcore.RecoveryOnDecline()); err != nil {
			return out{}, err
		}
		return out{}, nil
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
