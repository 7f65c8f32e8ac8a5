package main

import (
	"fmt"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type itemParams struct {
	ItemID string `json:"itemId" jsonschema:"the item's ID"`
}

type item struct {
	ItemID string `json:"itemId"`
	OK     bool   `json:"ok"`
}

var itemResource = mcpcore.Resource[itemParams, item]{
	Name:        "item",
	Description: "One item by ID; the ID missing does not exist.",
	URITemplate: "articles://items/{itemId}",
	MIMEType:    "application/json",
	Handler: func(_ *mcpcore.Context, p itemParams) (item, error) {
		if p.ItemID == "missing" {
			return item{}, mcperr.NotFound(fmt.Sprintf("Item %s not found", p.ItemID),
				mcperr.WithData(map[string]any{"itemId": p.ItemID}))
		}
		return item{ItemID: p.ItemID, OK: true}, nil
	},
}
