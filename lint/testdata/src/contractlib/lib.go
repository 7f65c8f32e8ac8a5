// Package contractlib declares contracts that the definitions of package
// contractuse name: each gets a fact with its entries, or with what
// stopped the analysis.
package contractlib

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"contractlib/errs"
)

var stale = mcpcore.Failure{Reason: "stale", Code: mcperr.CodeConflict, When: "The item changed meanwhile.", Recovery: "Fetch the item again, then retry the change."}

// Common is the service contract every tool shares; busy comes from a
// third package.
var Common = []mcpcore.Failure{errs.Busy, stale} // want Common:"contract busy:RateLimited, stale:Conflict"

// Stale is an entry, named on its own.
var Stale = stale // want Stale:"contract stale:Conflict"

// WithCommon is a tool's own entries, then the service's.
func WithCommon(own ...mcpcore.Failure) []mcpcore.Failure { // want WithCommon:`contract param 0\.\.\., busy:RateLimited, stale:Conflict`
	return append(own, Common...)
}

// Pair puts one entry before a contract.
func Pair(first mcpcore.Failure, rest []mcpcore.Failure) []mcpcore.Failure { // want Pair:`contract param 0, param 1\.\.\.`
	return append([]mcpcore.Failure{first}, rest...)
}

// Around calls a helper of its own package.
func Around(f mcpcore.Failure) []mcpcore.Failure { // want Around:`contract param 0, busy:RateLimited, stale:Conflict`
	return WithCommon(f)
}

func load() []mcpcore.Failure {
	var fs []mcpcore.Failure
	fs = append(fs, stale)
	return fs
}

// Loaded is computed: its fact says so.
var Loaded = load() // want Loaded:`contract unanalyzable: the variable Loaded of package contractlib, whose value is the result of a call to load, whose body mcplint cannot evaluate`

// Assigned is assigned again.
var Assigned = []mcpcore.Failure{stale} // want Assigned:`contract unanalyzable: the variable Assigned of package contractlib, which is assigned after its declaration`

func init() { Assigned = append(Assigned, errs.Busy) }

// Build has a body mcplint does not evaluate.
func Build() []mcpcore.Failure { // want Build:`contract unanalyzable: the result of a call to contractlib.Build, whose body mcplint cannot evaluate`
	fs := []mcpcore.Failure{stale}
	return fs
}

func reasonOf() string { return "computed" }

// Computed has an entry whose Reason is not a constant.
var Computed = []mcpcore.Failure{{Reason: reasonOf(), Code: mcperr.CodeForbidden, When: "Sometimes.", Recovery: "Ask an administrator for access to the items."}} // want Computed:`contract \?`

// Written is assigned by package contractuse.
var Written = []mcpcore.Failure{stale} // want Written:"contract stale:Conflict"

// unexported names get no fact: no other package can name them.
var local = []mcpcore.Failure{stale}

var _ = local
