package contractcheck

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Entries may be written with the type's own name, contract.Failure, which
// mcpcore.Failure aliases: they are checked as the same declarations.

// A clean entry: nothing to report.
var queueFull = contract.Failure{
	Reason:    "vocab_queue_full",
	Code:      mcperr.CodeRateLimited,
	When:      "The upstream queue is full.",
	Recovery:  "Wait thirty seconds, then call the tool again.",
	Retryable: contract.Retryable,
	Severity:  contract.SeverityNotice,
}

var vocabSeverity = contract.Failure{
	Reason:   "vocab_severity",
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: "Call the tool again with different arguments please.",
	Severity: "critical", // want `error-contract-severity-level: Failure "vocab_severity" has severity "critical"`
}

var vocabTool = mcpcore.Tool[in, out]{
	Name: "vocab",
	Errors: []contract.Failure{
		queueFull,
		queueFull, // want `error-contract-reason-unique: reason "vocab_queue_full" is declared twice in tool vocab`
	},
	Handler: func(ctx *mcpcore.Context, _ in) (out, error) { return out{}, nil },
}
