package conformance

import (
	"context"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item matched.", Recovery: "Try the search tool to find valid IDs first."}

var queueFull = mcpcore.Failure{Reason: "queue_full", Code: mcperr.CodeRateLimited, When: "The queue is full.", Recovery: "Wait 30 seconds and retry, or reduce batch size."}

// typo is declared by no tool.
var typo = mcpcore.Failure{Reason: "typo", Code: mcperr.CodeNotFound, When: "Never declared.", Recovery: "There is nothing to recover from here at all."}

type in struct{ ID string }
type out struct{}

var search = mcpcore.Tool[in, out]{
	Name:   "search",
	Errors: []mcpcore.Failure{noMatch, queueFull},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		switch i.ID {
		case "a":
			return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch))
		case "b":
			return out{}, ctx.Fail(noMatch, "No item") // want `error-contract-recovery-unforwarded: this ctx.Fail sends no recovery hint: the declared Recovery of "no_match" reaches neither client surface`
		case "c":
			return out{}, ctx.Fail(queueFull, "Busy", mcperr.WithRecovery("Wait "+i.ID+" seconds."))
		case "d":
			return out{}, ctx.Fail(queueFull, "Busy", mcperr.WithData(map[string]any{"recovery": map[string]any{"hint": "Wait."}}))
		case "e":
			return out{}, ctx.Fail(typo, "Never", ctx.RecoveryFor(typo)) // want `error-contract-undeclared: ctx.Fail is given Failure "typo", which tool search does not declare in Errors`
		case "f":
			// An inline copy equal to a declared entry is the same value.
			return out{}, ctx.Fail(mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item matched.", Recovery: "Try the search tool to find valid IDs first."}, "No item", mcperr.WithRecovery("Search first."))
		case "g":
			opts := []mcperr.Option{ctx.RecoveryFor(noMatch)}
			return out{}, ctx.Fail(noMatch, "No item", opts...) // spread options are not known: silent
		case "h":
			// A Fail in a closure of the handler uses the same contract.
			_, err := mcperr.Retry(ctx, mcperr.RetryOptions{}, func(context.Context) (out, error) {
				return out{}, ctx.Fail(queueFull, "Busy") // want `error-contract-recovery-unforwarded`
			})
			return out{}, err
		case "i":
			return out{}, ctx.Fail(queueFull, "Busy", mcperr.WithCause(nil)) // want `error-contract-recovery-unforwarded`
		case "j":
			//mcplint:ignore error-contract-recovery-unforwarded the message already says what to do next
			return out{}, ctx.Fail(queueFull, "Busy; wait a minute and call again.")
		}
		return out{}, nil
	},
}

// A tool without Errors declares nothing: any Fail is undeclared.
var plain = mcpcore.Tool[in, out]{
	Name: "plain",
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch)) // want `error-contract-undeclared: ctx.Fail is given Failure "no_match", which tool plain does not declare in Errors`
	},
}

// A resource's handler is checked against its contract like a tool's.
var item = mcpcore.Resource[in, string]{
	Name:        "item",
	URITemplate: "test://items/{id}",
	Errors:      []mcpcore.Failure{noMatch}, // want `error-contract-unthrown: resource item declares reason "no_match"`
	Handler: func(ctx *mcpcore.Context, i in) (string, error) {
		return "", ctx.Fail(queueFull, "Busy", ctx.RecoveryFor(queueFull)) // want `error-contract-undeclared: ctx.Fail is given Failure "queue_full", which resource item does not declare in Errors` `error-contract-conformance: resource item can return RateLimited`
	},
}

// A prompt is checked against its contract like a tool.
var explain = mcpcore.Prompt[in]{
	Name:   "explain",
	Errors: []mcpcore.Failure{noMatch}, // want `error-contract-unthrown: prompt explain declares reason "no_match"`
	Handler: func(ctx *mcpcore.Context, i in) ([]string, error) {
		return nil, ctx.Fail(queueFull, "Busy", ctx.RecoveryFor(queueFull)) // want `error-contract-undeclared: ctx.Fail is given Failure "queue_full", which prompt explain does not declare in Errors` `error-contract-conformance: prompt explain can return RateLimited`
	},
}
