package contractcheck

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A clean entry: nothing to report.
var noMatch = mcpcore.Failure{
	Reason:   "no_match",
	Code:     mcperr.CodeNotFound,
	When:     "No requested item returned data.",
	Recovery: "Try the search tool to discover valid IDs first.",
	Severity: mcpcore.SeverityNotice,
}

var badCode = mcpcore.Failure{
	Reason:   "bad_code",
	Code:     12345, // want `error-contract-code-unknown: Failure "bad_code" has code 12345, which is not an mcperr code`
	When:     "Never.",
	Recovery: "Call the tool again with different arguments please.",
}

var giveUp = mcpcore.Failure{
	Reason:   "give_up",
	Code:     mcperr.CodeUnknownError, // want `error-contract-code-unknown-error: Failure "give_up" declares CodeUnknownError`
	When:     "Something happened.",
	Recovery: "Call the tool again with different arguments please.",
}

var noCode = mcpcore.Failure{ // want `error-contract-code-unknown: Failure "no_code" has no Code`
	Reason:   "no_code",
	When:     "Something happened.",
	Recovery: "Call the tool again with different arguments please.",
}

var noReason = mcpcore.Failure{ // want `error-contract-reason-required: a Failure has no Reason`
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: "Call the tool again with different arguments please.",
}

var camel = mcpcore.Failure{
	Reason:   "QueueFull", // want `error-contract-reason-format: reason "QueueFull" is not snake_case; rename it "queue_full"`
	Code:     mcperr.CodeRateLimited,
	When:     "The queue is full.",
	Recovery: "Wait 30 seconds and retry, or reduce batch size.",
}

var noWhen = mcpcore.Failure{
	Reason:   "no_when",
	Code:     mcperr.CodeNotFound,
	When:     "  ", // want `error-contract-when-required: Failure "no_when" has no When`
	Recovery: "Call the tool again with different arguments please.",
}

var blankRecovery = mcpcore.Failure{
	Reason:   "blank_recovery",
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: " \t", // want `error-contract-recovery-required: Failure "blank_recovery" has no Recovery`
}

var shortRecovery = mcpcore.Failure{
	Reason:   "short_recovery",
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: "Try later on.", // want `error-contract-recovery-min-words: Failure "short_recovery" has a Recovery of 3 word\(s\)`
}

var placeholder = mcpcore.Failure{
	Reason:   "placeholder",
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: "Try again.", // want `error-contract-recovery-min-words: Failure "placeholder" has the placeholder Recovery "Try again."`
}

var badSeverity = mcpcore.Failure{
	Reason:   "bad_severity",
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: "Call the tool again with different arguments please.",
	Severity: "critical", // want `error-contract-severity-level: Failure "bad_severity" has severity "critical"`
}

// A zero Failure is a "none" value, not a declaration.
func none() (mcpcore.Failure, bool) { return mcpcore.Failure{}, false }

// Values the analyzer cannot know are not judged.
func computed(reason, recovery string, code mcperr.Code) mcpcore.Failure {
	return mcpcore.Failure{Reason: reason, Code: code, When: "Computed.", Recovery: recovery}
}

type in struct{}
type out struct{}

var fetch = mcpcore.Tool[in, out]{
	Name: "fetch",
	Errors: []mcpcore.Failure{
		noMatch,
		noMatch, // want `error-contract-reason-unique: reason "no_match" is declared twice in tool fetch; rename or merge the entries`
	},
	Handler: func(ctx *mcpcore.Context, _ in) (out, error) { return out{}, nil },
}

var empty = mcpcore.Tool[in, out]{
	Name:    "empty",
	Errors:  []mcpcore.Failure{}, // want `error-contract-empty: tool empty declares an empty Errors`
	Handler: func(ctx *mcpcore.Context, _ in) (out, error) { return out{}, nil },
}

// A tool built by a helper, with an inline entry and a local one.
func helperTool(name string) mcpcore.Tool[in, out] {
	declined := mcpcore.Failure{
		Reason:   "consent_declined",
		Code:     mcperr.CodeInvalidRequest,
		When:     "The caller declined.",
		Recovery: "Ok.", // want `error-contract-recovery-min-words: Failure "consent_declined" has a Recovery of 1 word\(s\)`
	}
	return mcpcore.Tool[in, out]{
		Name: name,
		Errors: []mcpcore.Failure{
			declined,
			{Reason: "consent_declined", Code: mcperr.CodeInvalidRequest, When: "Twice.", Recovery: "Re-run the tool and confirm the prompt."}, // want `error-contract-reason-unique: reason "consent_declined" is declared twice in tool name`
		},
		Handler: func(ctx *mcpcore.Context, _ in) (out, error) { return out{}, nil },
	}
}

// A resource's contract is checked like a tool's.
var item = mcpcore.Resource[in, string]{
	Name:        "item",
	URITemplate: "test://items/{id}",
	Errors:      []mcpcore.Failure{noMatch, noMatch}, // want `error-contract-reason-unique: reason "no_match" is declared twice in resource item`
}

// Suppressions: with a reason it silences; without, it is a finding itself
// and silences nothing.
var legacy = mcpcore.Failure{
	Reason:   "LegacyName", //mcplint:ignore error-contract-reason-format clients already switch on this spelling
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: "Call the tool again with different arguments please.",
}

//mcplint:ignore error-contract-recovery-min-words the short hint is the product's wording
var terse = mcpcore.Failure{Reason: "terse", Code: mcperr.CodeNotFound, When: "Something happened.", Recovery: "Ask again."}

var unexplained = mcpcore.Failure{
	Reason:   "Unexplained", //mcplint:ignore error-contract-reason-format // want `mcplint-ignore-reason: //mcplint:ignore error-contract-reason-format gives no reason` `error-contract-reason-format: reason "Unexplained" is not snake_case`
	Code:     mcperr.CodeNotFound,
	When:     "Something happened.",
	Recovery: "Call the tool again with different arguments please.",
}

var misspelt = mcpcore.Failure{
	Reason: "misspelt",
	Code:   mcperr.CodeNotFound,
	When:   "Something happened.",
	//mcplint:ignore error-contract-recovery-min-word the product's wording // want `mcplint-ignore-reason: //mcplint:ignore names "error-contract-recovery-min-word", which is no mcplint rule`
	Recovery: "Ask again.", // want `error-contract-recovery-min-words`
}

// Two reasons whose snake_case spelling is the same: no rename fix, which
// would make them duplicates.
var twinA = mcpcore.Failure{Reason: "DupName", Code: mcperr.CodeNotFound, When: "Something happened.", Recovery: "Call the tool again with different arguments please."}  // want `error-contract-reason-format: reason "DupName"`
var twinB = mcpcore.Failure{Reason: "dup-name", Code: mcperr.CodeNotFound, When: "Something happened.", Recovery: "Call the tool again with different arguments please."} // want `error-contract-reason-format: reason "dup-name"`

// A zero entry in a contract is checked as an entry.
var zeroEntry = mcpcore.Tool[in, out]{
	Name:    "zero",
	Errors:  []mcpcore.Failure{noMatch, {}}, // want `error-contract-code-unknown: a Failure has no Code` `error-contract-reason-required` `error-contract-when-required` `error-contract-recovery-required`
	Handler: func(ctx *mcpcore.Context, _ in) (out, error) { return out{}, nil },
}
