// Package svcbody's handlers call package ncbi: the findings about what
// ncbi builds are reported in ncbi, and not again here.
package svcbody

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"svcbody/ncbi"
)

var client = &ncbi.Client{}

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item matched.", Recovery: "Try the search tool to find valid IDs first."}

type in struct{ ID string }
type out struct{ N int }

func fetch(ctx *mcpcore.Context, i in) (out, error) {
	if _, err := client.Fetch(ctx, i.ID); err != nil {
		return out{}, err
	}
	n, err := ncbi.Lookup(i.ID)
	if err != nil {
		return out{}, err
	}
	return out{N: n}, ncbi.FailHere(ctx, noMatch, i.ID)
}

var fetchTool = mcpcore.Tool[in, out]{Name: "fetch", Errors: []mcpcore.Failure{noMatch}, Handler: fetch}

// A helper of the handler's package is a service too.
func check(id string, err error) error {
	if err != nil {
		return mcperr.InvalidParams("bad id " + id) // want `preserve-cause-on-rethrow`
	}
	return nil
}

// The named handler is read once, with the handler rules, not again as a
// service.
func search(ctx *mcpcore.Context, i in) (out, error) {
	n, err := ncbi.Parse(i.ID)
	if err != nil {
		return out{}, mcperr.NotFound("no match") // want `preserve-cause-on-rethrow`
	}
	return out{N: n}, check(i.ID, nil)
}

var searchTool = mcpcore.Tool[in, out]{Name: "search", Errors: []mcpcore.Failure{noMatch}, Handler: search}
