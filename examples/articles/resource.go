package main

import (
	"context"
	"fmt"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type itemParams struct {
	ItemID string `json:"itemId" jsonschema:"the item's ID"`
}

// An item is what the item resource shows: any ID but missing is an item,
// and the items of the library's articles (their PMIDs) also show the
// article's title and whether it is retracted.
type item struct {
	ItemID           string `json:"itemId"`
	OK               bool   `json:"ok"`
	Title            string `json:"title,omitempty"`
	Retracted        bool   `json:"retracted,omitempty"`
	RetractionReason string `json:"retractionReason,omitempty"`
}

var itemResource = mcpcore.Resource[itemParams, item]{
	Name: "item",
	Description: "One item by ID; the ID missing does not exist. The PMIDs of the library are items too, which show " +
		"the article's title and retraction; subscribe to one to hear when retract_article changes it.",
	URITemplate: "articles://items/{itemId}",
	MIMEType:    "application/json",
	Subscribe:   true,
	Complete: map[string]mcpcore.CompleteFunc{
		// The suggestions are the PMIDs of the library.
		"itemId": func(_ context.Context, value string, _ map[string]string) ([]string, error) {
			return pmids(value), nil
		},
	},
	Handler: func(_ *mcpcore.Context, p itemParams) (item, error) {
		if p.ItemID == "missing" {
			return item{}, mcperr.NotFound(fmt.Sprintf("Item %s not found", p.ItemID),
				mcperr.WithData(map[string]any{"itemId": p.ItemID}))
		}
		it := item{ItemID: p.ItemID, OK: true}
		if a, ok := lookup(p.ItemID); ok {
			it.Title, it.Retracted, it.RetractionReason = a.Title, a.Retracted, a.RetractionReason
		}
		return it, nil
	},
}
