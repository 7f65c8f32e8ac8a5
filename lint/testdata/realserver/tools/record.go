package tools

import (
	"example.com/realserver/upstream"
	"github.com/seed417024ea/mcpcore"
)

type recordInput struct {
	ID  string `json:"id,omitempty" jsonschema:"the record's catalog ID, as search_catalog returns it"`
	DOI string `json:"doi,omitempty" jsonschema:"the record's DOI, such as 10.1000/xyz123"`
}

func recordTool(svc *upstream.Client) mcpcore.Tool[recordInput, upstream.Record] {
	return mcpcore.Tool[recordInput, upstream.Record]{
		Name:        "get_record",
		Description: "Get one record of the catalog, by catalog ID or by DOI.",
		Errors:      withService(noRecord, needID),
		Handler: func(ctx *mcpcore.Context, in recordInput) (upstream.Record, error) {
			if err := requireOne(ctx, in.ID, in.DOI); err != nil {
				return upstream.Record{}, err
			}
			var rec upstream.Record
			var err error
			if in.DOI != "" {
				rec, err = svc.GetByDOI(ctx, in.DOI)
			} else {
				rec, err = svc.Get(ctx, in.ID)
			}
			if err != nil {
				return upstream.Record{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)
			}
			return rec, nil
		},
	}
}

// requireOne fails with needID unless exactly one of id and doi is given.
func requireOne(ctx *mcpcore.Context, id, doi string) error {
	if (id == "") == (doi == "") {
		return ctx.Fail(needID, "Pass either id or doi, not both and not neither", ctx.RecoveryFor(needID))
	}
	return nil
}
