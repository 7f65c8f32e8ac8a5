package tools

import (
	"strings"

	"example.com/realserver/upstream"
	"github.com/seed417024ea/mcpcore"
)

type searchInput struct {
	Query  string `json:"query" jsonschema:"words of the title, the authors or the abstract"`
	Limit  int    `json:"limit,omitempty" jsonschema:"how many records to return, 1 to 50" minimum:"1" maximum:"50" default:"10"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the next cursor of the page before, for the next page"`
}

type searchOutput struct {
	Total   int               `json:"total" jsonschema:"how many records match"`
	Records []upstream.Record `json:"records" jsonschema:"the records of this page"`
	Next    string            `json:"next,omitempty" jsonschema:"the cursor of the next page, absent on the last"`
}

func searchTool(svc *upstream.Client) mcpcore.Tool[searchInput, searchOutput] {
	return mcpcore.Tool[searchInput, searchOutput]{
		Name:        "search_catalog",
		Description: "Search the catalog's works by title, authors and abstract; returns one page of records.",
		Errors:      withService(emptyQuery),
		Handler: func(ctx *mcpcore.Context, in searchInput) (searchOutput, error) {
			q := strings.Join(strings.Fields(in.Query), " ")
			if q == "" {
				return searchOutput{}, ctx.Fail(emptyQuery, "The query is empty", ctx.RecoveryFor(emptyQuery))
			}
			page, err := svc.Search(ctx, q, cmpLimit(in.Limit), in.Cursor)
			if err != nil {
				// The whole contract is searched: each service code is
				// declared once.
				return searchOutput{}, ctx.FailFrom(err)
			}
			return searchOutput{Total: page.Total, Records: page.Records, Next: page.Next}, nil
		},
	}
}

// cmpLimit is the page size for a requested limit: the default for 0.
func cmpLimit(n int) int {
	if n <= 0 {
		return 10
	}
	return min(n, 50)
}
