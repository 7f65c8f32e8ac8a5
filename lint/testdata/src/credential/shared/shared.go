// Package shared holds a contract its importers share, and constants they
// write into their messages.
package shared

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A constant is reported where a text uses it, not where it is declared.
const (
	StripeKey = "sk_live_NNaQDG1Wk1WIsICVzZdSy0HV"
	Hint      = "Call search_items to find the item's ID first."
)

var Busy = mcpcore.Failure{
	Reason:   "busy",
	Code:     mcperr.CodeRateLimited,
	When:     "The upstream throttles the server",
	Recovery: "Wait a minute, or call the upstream with the key AKIAZYCQ369CHV94GEYZ yourself.", // want `no-credential-literal: the Recovery of failure busy holds a credential-shaped value .*: it would reach clients as written; remove it \(read a secret from configuration\), and rotate it`
	ThrownBy: mcpcore.ThrownByService,
}

var Clean = mcpcore.Failure{
	Reason:   "no_item",
	Code:     mcperr.CodeNotFound,
	When:     "No item has this ID",
	Recovery: Hint,
}
