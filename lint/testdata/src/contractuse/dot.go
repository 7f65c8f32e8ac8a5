package contractuse

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	. "contractlib"
)

// A dot-imported helper is read; a dot-imported variable is not, since its
// entries would stand at a bare name that a fix could take for an entry.
var dotHelperTool = mcpcore.Tool[in, out]{
	Name:   "dot_helper",
	Errors: WithCommon(noMatch), // want `error-contract-unthrown: tool dot_helper declares reason "stale"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.ID == "" {
			return out{}, mcperr.Forbidden("no") // want `error-contract-conformance: tool dot_helper can return Forbidden`
		}
		return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch))
	},
}

var dotVarTool = mcpcore.Tool[in, out]{
	Name:   "dot_var",
	Errors: Common, // want `error-contract-unanalyzable: the Errors of tool dot_var is the variable Common of package contractlib, dot-imported, which mcplint does not follow`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, mcperr.Forbidden("no")
	},
}
