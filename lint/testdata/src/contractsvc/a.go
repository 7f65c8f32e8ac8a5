package contractsvc

import (
	"context"
	"net/http"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"svcmid"
)

var client = &svcmid.Client{}

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item matched.", Recovery: "Try the search tool to find valid IDs first."}

var throttled = mcpcore.Failure{Reason: "throttled", Code: mcperr.CodeRateLimited, When: "The upstream throttles.", Recovery: "Wait a minute, then call the tool again."}

var fromService = mcpcore.Failure{Reason: "from_service", Code: mcperr.CodeForbidden, When: "The service refuses.", Recovery: "Ask an administrator for access to the items.", ThrownBy: mcpcore.ThrownByService}

var neverRaised = mcpcore.Failure{Reason: "never_raised", Code: mcperr.CodeInvalidParams, When: "Never.", Recovery: "There is nothing to recover from here at all."}

// A suppression on the contract entry covers the findings about it.
//
//mcplint:ignore error-contract-unthrown raised by a job outside this server, which the analysis cannot see
var quiet = mcpcore.Failure{Reason: "quiet", Code: mcperr.CodeInvalidParams, When: "Never here.", Recovery: "There is nothing to recover from here at all."}

type in struct{ ID string }
type out struct{ V string }

// fetch reaches svcdeep.Get through svcmid.Client.Fetch: RateLimited with
// reason throttled (declared), and Conflict (not declared).
func fetch(ctx *mcpcore.Context, i in) (out, error) {
	v, err := client.Fetch(ctx, i.ID) // want `error-contract-conformance: tool fetch can return Conflict through svcmid.Client.Fetch \(raised in svcdeep.Get\) if id == "gone", which its contract does not declare`
	if err != nil {
		return out{}, err
	}
	if v == "" {
		return out{}, mcperr.NotFound("no item") // want `error-contract-prefer-fail: tool fetch builds a NotFound error that its contract declares \("no_match"\) without ctx.Fail`
	}
	if v == "down" {
		return out{}, client.Ping() // a baseline code: fine
	}
	if v == "status" {
		return out{}, client.Status(&http.Response{}) // FromResponse: no finding on a guess
	}
	if v == "x" {
		return out{}, mcperr.Forbidden("nope") // want `error-contract-prefer-fail: tool fetch builds a Forbidden error that its contract declares \("from_service"\)`
	}
	return out{V: v}, nil
}

var fetchTool = mcpcore.Tool[in, out]{
	Name: "fetch",
	Errors: []mcpcore.Failure{
		noMatch,     // want `error-contract-unthrown: tool fetch declares reason "no_match"`
		throttled,   // raised two calls down, in another package
		fromService, // marked: not reported
		neverRaised, // want `error-contract-unthrown: tool fetch declares reason "never_raised", but neither its handler nor a service it calls raises it`
		quiet,
	},
	Handler: fetch,
}

// A handler that calls through an interface may raise anything: no
// unthrown finding.
type store interface {
	Get(ctx context.Context, id string) (string, error)
}

var st store

var opaqueTool = mcpcore.Tool[in, out]{
	Name:   "opaque",
	Errors: []mcpcore.Failure{neverRaised},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		v, err := st.Get(ctx, i.ID)
		return out{V: v}, err
	},
}
