// Package planted is a tool with one planted mistake, for the test of the
// golangci-lint plugin: its handler builds the declared NotFound with a
// factory instead of ctx.Fail (error-contract-prefer-fail), so that the
// declared entry is raised by nothing mcplint sees (error-contract-unthrown).
package planted

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item has the requested ID.",
	Recovery: "Call search_items to discover valid item IDs first."}

type input struct {
	ID string `json:"id"`
}

type output struct {
	Title string `json:"title"`
}

// Fetch fetches one item.
var Fetch = mcpcore.Tool[input, output]{
	Name:        "fetch_item",
	Description: "Fetch one item by ID.",
	Errors:      []mcpcore.Failure{noMatch},
	Handler:     fetch,
}

func fetch(ctx *mcpcore.Context, in input) (output, error) {
	if in.ID == "" {
		return output{}, mcperr.NotFound("No item " + in.ID)
	}
	return output{Title: in.ID}, nil
}
