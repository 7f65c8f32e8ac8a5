package tools

import (
	"errors"
	"strings"

	"example.com/realserver/store"
	"example.com/realserver/upstream"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type saveInput struct {
	ID   string   `json:"id" jsonschema:"the record's catalog ID"`
	Note string   `json:"note,omitempty" jsonschema:"a note of the user's about the record"`
	Tags []string `json:"tags,omitempty" jsonschema:"tags to file the record under"`
}

func saveTool(svc *upstream.Client, shelf store.Shelf) mcpcore.Tool[saveInput, store.Entry] {
	return mcpcore.Tool[saveInput, store.Entry]{
		Name:        "save_record",
		Description: "Save a record of the catalog on the user's shelf, with a note and tags.",
		Errors:      append(serviceErrors, noRecord, alreadySaved),
		Handler: func(ctx *mcpcore.Context, in saveInput) (store.Entry, error) {
			if _, err := shelf.Get(ctx, in.ID); err == nil {
				return store.Entry{}, ctx.Fail(alreadySaved, "Record "+in.ID+" is already on the shelf", ctx.RecoveryFor(alreadySaved))
			} else if !errors.Is(err, store.ErrNoRow) {
				return store.Entry{}, err
			}
			rec, err := svc.Get(ctx, in.ID)
			if err != nil {
				return store.Entry{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)
			}
			e, err := shelf.Put(ctx, store.Entry{RecordID: rec.ID, Title: rec.Title, Note: in.Note, Tags: in.Tags})
			if errors.Is(err, store.ErrStale) {
				// Saved by a concurrent call since the Get above.
				return store.Entry{}, ctx.Fail(alreadySaved, "Record "+in.ID+" was saved meanwhile",
					mcperr.WithCause(err), ctx.RecoveryFor(alreadySaved))
			}
			return e, err
		},
	}
}

type noteInput struct {
	ID      string `json:"id" jsonschema:"the saved record's catalog ID"`
	Note    string `json:"note" jsonschema:"the new note; empty clears it"`
	Version int    `json:"version" jsonschema:"the entry's version, as shelf://entries/{recordId} shows it"`
}

func noteTool(shelf store.Shelf) mcpcore.Tool[noteInput, store.Entry] {
	return mcpcore.Tool[noteInput, store.Entry]{
		Name:        "update_note",
		Description: "Replace the note of a record saved on the shelf.",
		Errors:      []mcpcore.Failure{notSaved, staleVersion},
		Handler: func(ctx *mcpcore.Context, in noteInput) (store.Entry, error) {
			e, err := shelf.Get(ctx, in.ID)
			if errors.Is(err, store.ErrNoRow) {
				return store.Entry{}, ctx.Fail(notSaved, "Record "+in.ID+" is not on the shelf",
					mcperr.WithCause(err), ctx.RecoveryFor(notSaved))
			}
			if err != nil {
				return store.Entry{}, err
			}
			e.Note, e.Version = strings.TrimSpace(in.Note), in.Version
			e, err = shelf.Put(ctx, e)
			if errors.Is(err, store.ErrStale) {
				return store.Entry{}, ctx.Fail(staleVersion, "The entry of record "+in.ID+" changed since that version",
					mcperr.WithCause(err), ctx.RecoveryFor(staleVersion))
			}
			return e, err
		},
	}
}
