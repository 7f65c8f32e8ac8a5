// Package demo is a small server with one violation of each mcplint rule,
// for the closing note and the command's end-to-end test.
package demo

import (
	"errors"
	"fmt"
	"strconv"

	"example.com/demo/ncbi"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var (
	noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No PMID returned data.",
		Recovery: "Try the search tool to discover valid PMIDs first."}
	stale = mcpcore.Failure{Reason: "stale", Code: mcperr.CodeConflict, When: "The cache is stale.",
		Recovery: "Call the refresh tool, then fetch the articles again."}
	unknownCode = mcpcore.Failure{Reason: "unknown_code", Code: 12345, When: "Never.",
		Recovery: "Call the tool again with other arguments please."}
	gaveUp = mcpcore.Failure{Reason: "gave_up", Code: mcperr.CodeUnknownError, When: "Something failed.",
		Recovery: "Call the tool again with other arguments please."}
	noReason = mcpcore.Failure{Code: mcperr.CodeNotFound, When: "Something failed.",
		Recovery: "Call the tool again with other arguments please."}
	camel = mcpcore.Failure{Reason: "QueueFull", Code: mcperr.CodeRateLimited, When: "The queue is full.",
		Recovery: "Wait 30 seconds and retry, or reduce the batch size."}
	noWhen = mcpcore.Failure{Reason: "no_when", Code: mcperr.CodeNotFound, When: "",
		Recovery: "Call the tool again with other arguments please."}
	noRecovery  = mcpcore.Failure{Reason: "no_recovery", Code: mcperr.CodeNotFound, When: "Something failed.", Recovery: ""}
	placeholder = mcpcore.Failure{Reason: "placeholder", Code: mcperr.CodeNotFound, When: "Something failed.",
		Recovery: "Try again."}
	loud = mcpcore.Failure{Reason: "loud", Code: mcperr.CodeNotFound, When: "Something failed.",
		Recovery: "Call the tool again with other arguments please.", Severity: "critical"}
	notDeclared = mcpcore.Failure{Reason: "not_declared", Code: mcperr.CodeNotFound, When: "Never declared.",
		Recovery: "Call the tool again with other arguments please."}
)

type input struct {
	PMID string `json:"pmid"`
}

type output struct {
	Title string `json:"title"`
}

var FetchArticle = mcpcore.Tool[input, output]{
	Name:        "fetch_article",
	Description: "Fetch one article by PMID.",
	Errors:      []mcpcore.Failure{noMatch, stale, noMatch},
	Handler:     fetch,
}

func fetch(ctx *mcpcore.Context, in input) (output, error) {
	title, err := ncbi.Fetch(ctx, in.PMID)
	if err != nil {
		return output{}, err
	}
	switch title {
	case "":
		return output{}, mcperr.NotFound("No article " + in.PMID)
	case "gone":
		return output{}, ctx.Fail(noMatch, "No article "+in.PMID)
	case "typo":
		return output{}, ctx.Fail(notDeclared, "Never", ctx.RecoveryFor(notDeclared))
	case "plain":
		return output{}, errors.New("no article")
	case "conflict":
		return output{}, mcperr.New(mcperr.CodeInvalidParams, "bad PMID")
	}
	if _, err := strconv.Atoi(in.PMID); err != nil {
		return output{}, mcperr.InvalidParams("PMID " + in.PMID + " is not a number: " + err.Error())
	}
	//mcplint:ignore prefer-mcp-error-in-handler
	return output{Title: title}, fmt.Errorf("not yet")
}

var Broken = mcpcore.Tool[input, output]{
	Name:        "broken",
	Description: "A tool whose contract is wrong in every way.",
	Errors:      []mcpcore.Failure{unknownCode, gaveUp, noReason, camel, noWhen, noRecovery, placeholder, loud},
	Handler: func(ctx *mcpcore.Context, in input) (output, error) {
		return output{}, nil
	},
}

var Empty = mcpcore.Tool[input, output]{
	Name:        "empty",
	Description: "A tool with an empty contract.",
	Errors:      []mcpcore.Failure{},
	Handler:     func(ctx *mcpcore.Context, in input) (output, error) { return output{}, nil },
}

func loadContract() []mcpcore.Failure { c := []mcpcore.Failure{}; return c }

var Loaded = mcpcore.Tool[input, output]{
	Name:        "loaded",
	Description: "A tool whose contract is computed.",
	Errors:      loadContract(),
	Handler:     func(ctx *mcpcore.Context, in input) (output, error) { return output{}, nil },
}

var Lookup = mcpcore.Tool[input, output]{
	Name:        "lookup",
	Description: "Find an article by DOI.",
	Errors:      []mcpcore.Failure{noMatch, stale},
	Handler: func(ctx *mcpcore.Context, in input) (output, error) {
		pmid, err := ncbi.Lookup(ctx, in.PMID)
		if err != nil {
			return output{}, ctx.FailFrom(err, stale)
		}
		return output{Title: pmid}, ctx.Fail(stale, "Stale: the cache of key ghp_JvWiVv3jsB9qKdVHW37ZrPxZT6L7Wgxa9Gag expired", ctx.RecoveryFor(stale))
	},
}
