package failfrom

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var busy = mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "The upstream throttles.", Recovery: "Wait a minute, then call the tool again."}

var gone = mcpcore.Failure{Reason: "gone", Code: mcperr.CodeNotFound, When: "The item is gone.", Recovery: "Search for the item again with the search tool."}

var unused = mcpcore.Failure{Reason: "unused", Code: mcperr.CodeConflict, When: "Never.", Recovery: "There is nothing to recover from here at all."}

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
		return out{}, ctx.FailFrom(err, busy, gone)
	}
	return out{V: v}, nil
}

var fetchTool = mcpcore.Tool[in, out]{
	Name:    "fetch",
	Errors:  []mcpcore.Failure{busy, gone, unused}, // want `error-contract-unthrown: tool fetch declares reason "gone"` `error-contract-unthrown: tool fetch declares reason "unused"`
	Handler: fetch,
}
