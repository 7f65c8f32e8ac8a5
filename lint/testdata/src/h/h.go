// Package h gives handlers the ways a server does: func literals in a
// tool's composite literal, a named function, a function of another
// package. The probe analyzer of raises_test.go reports what raises says of
// each, and the call site of each code.
package h

import (
	"b"
	"c"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var client = &b.Client{}

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound}

var fetch = mcpcore.Tool[string, string]{
	Name:   "fetch",
	Errors: []mcpcore.Failure{noMatch, c.Throttled},
	Handler: func(ctx *mcpcore.Context, id string) (string, error) { // want `handler: codes NotFound, NotFound via b.Client.Fetch, RateLimited via b.Client.Fetch from c.Get, ServiceUnavailable via b.Client.Fetch from c.Get; reasons no_match:NotFound, no_match:NotFound via b.Client.Fetch, rate_limited:RateLimited via b.Client.Fetch from c.Get; fromResponse via b.Client.Fetch from c.Get`
		if id == "" {
			return "", ctx.Fail(noMatch, "") // want `code NotFound` `entry failure no_match:NotFound`
		}
		s, err := client.Fetch(ctx, id) // want `code NotFound via b.Client.Fetch` `code RateLimited via b.Client.Fetch from c.Get` `code ServiceUnavailable via b.Client.Fetch from c.Get`
		if err != nil {
			log(ctx.Fail(c.Throttled, "logged only")) // want `entry failure throttled:RateLimited thrownBy service`
			return "", err
		}
		return s, nil
	},
}

func log(error) {}

// A literal that returns nothing the analysis can see.
var quiet = mcpcore.Tool[string, string]{
	Name: "quiet",
	Handler: func(ctx *mcpcore.Context, id string) (string, error) { // want `handler: raises nothing`
		return id, nil
	},
}

func handleNamed(ctx *mcpcore.Context, id string) (string, error) { // want `handler: codes RateLimited via c.Get, ServiceUnavailable via c.Get; reasons rate_limited:RateLimited via c.Get; fromResponse via c.Get`
	_, err := c.Get(ctx, id) // want `code RateLimited via c.Get` `code ServiceUnavailable via c.Get`
	return "", err
}

var named = mcpcore.Tool[string, string]{Name: "named", Handler: handleNamed} // want `named handler: codes RateLimited via c.Get`

var imported = mcpcore.Tool[string, string]{Name: "imported", Handler: b.Handle} // want `named handler: codes RateLimited; reasons throttled:RateLimited$`

// A handler that is a function value: nothing is known, nothing is said.
var dynamic = mcpcore.Tool[string, string]{Name: "dynamic", Handler: pick()}

func pick() func(*mcpcore.Context, string) (string, error) { return handleNamed }

// newTool builds a tool whose handler captures the service it is given.
func newTool(cl *b.Client) mcpcore.Tool[string, string] {
	return mcpcore.Tool[string, string]{
		Name: "built",
		Handler: func(ctx *mcpcore.Context, id string) (string, error) { // want `handler: codes NotFound via b.Client.Fetch, RateLimited via b.Client.Fetch from c.Get, ServiceUnavailable via b.Client.Fetch from c.Get;`
			return cl.Fetch(ctx, id) // want `code NotFound via b.Client.Fetch` `code RateLimited via b.Client.Fetch from c.Get` `code ServiceUnavailable via b.Client.Fetch from c.Get`
		},
	}
}
