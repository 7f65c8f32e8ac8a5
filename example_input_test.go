package mcpcore_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type lookupArticles struct {
	PMIDs []string `json:"pmids,omitempty" maxItems:"20" pattern:"^[0-9]+$" patternMessage:"A PMID is digits only, such as 13054692."`
	DOI   string   `json:"doi,omitempty" jsonschema:"a DOI such as 10.1000/xyz123"`
}

// Validate says what the schema cannot: one of pmids and doi, not both.
func (in lookupArticles) Validate() error {
	if (len(in.PMIDs) > 0) == (in.DOI != "") {
		return mcpcore.InputIssues{{Path: []any{"doi"}, Message: "give pmids or a doi, exactly one of them"}}
	}
	return nil
}

// Constraints are struct tags named as the JSON Schema keywords; a keyword
// can carry a message of its own, and a Validate method checks the rest.
// Their issues come back in one ValidationError.
func ExampleInputIssues() {
	lookup := mcpcore.Tool[lookupArticles, struct{}]{
		Name: "lookup",
		Handler: func(*mcpcore.Context, lookupArticles) (struct{}, error) {
			return struct{}{}, nil
		},
	}
	cs, err := exampleClient(lookup)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	for _, args := range []map[string]any{
		{"pmids": []string{"PMID:1"}},
		{"pmids": []string{"1"}, "doi": "10.1000/xyz123"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup", Arguments: args})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// Error: at pmids[0]: A PMID is digits only, such as 13054692.
	// Error: at doi: give pmids or a doi, exactly one of them
}

// FailFrom maps a service's error onto the contract: the entry whose
// reason the service stamped, else the one with the error's code. The
// service opts into the declared Recovery where it raises, with
// mcpcore.RecoveryFor and the call's context, and FailFrom keeps it.
func ExampleContext_FailFrom() {
	queueFull := mcpcore.Failure{Reason: "queue_full", Code: mcperr.CodeRateLimited,
		When: "Our request queue is full.", Recovery: "Retry after 1-2 seconds."}
	fetch := mcpcore.Tool[struct{}, struct{}]{
		Name:   "fetch",
		Errors: []mcpcore.Failure{queueFull, ncbiThrottled},
		Handler: func(ctx *mcpcore.Context, _ struct{}) (struct{}, error) {
			err := ncbiFetch(ctx)
			return struct{}{}, ctx.FailFrom(err, queueFull, ncbiThrottled)
		},
	}
	cs, err := exampleClient(fetch)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fetch"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// Error: NCBI answered 429
	//
	// Recovery: Wait for the time in retryAfter, then call again.
}

// ncbiThrottled is the entry of NCBI's own 429, which the service names.
var ncbiThrottled = mcpcore.Failure{Reason: "rate_limited", Code: mcperr.CodeRateLimited,
	When: "NCBI throttles this server.", Recovery: "Wait for the time in retryAfter, then call again."}

// ncbiFetch is a service: it has only a context.Context, and what it
// returns for NCBI's own 429 names its reason and carries the calling
// tool's declared hint for it.
func ncbiFetch(ctx context.Context) error {
	return mcperr.RateLimited("NCBI answered 429",
		mcperr.WithData(map[string]any{"reason": "rate_limited", "retryAfter": 120}),
		mcpcore.RecoveryFor(ctx, ncbiThrottled))
}
