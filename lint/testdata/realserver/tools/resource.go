package tools

import (
	"errors"

	"example.com/realserver/store"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type entryParams struct {
	RecordID string `json:"recordId" jsonschema:"the saved record's catalog ID"`
}

func entryResource(shelf store.Shelf) mcpcore.Resource[entryParams, store.Entry] {
	return mcpcore.Resource[entryParams, store.Entry]{
		Name:        "shelf_entry",
		Description: "One record saved on the user's shelf, with its note, tags and version.",
		URITemplate: "shelf://entries/{recordId}",
		Errors:      []mcpcore.Failure{notSaved},
		Handler: func(ctx *mcpcore.Context, p entryParams) (store.Entry, error) {
			e, err := shelf.Get(ctx, p.RecordID)
			if errors.Is(err, store.ErrNoRow) {
				return store.Entry{}, ctx.Fail(notSaved, "Record "+p.RecordID+" is not on the shelf",
					mcperr.WithCause(err), ctx.RecoveryFor(notSaved))
			}
			return e, err
		},
	}
}
