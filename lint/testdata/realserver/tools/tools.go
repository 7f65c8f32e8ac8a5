package tools

import (
	"example.com/realserver/store"
	"example.com/realserver/upstream"
	"github.com/seed417024ea/mcpcore"
)

// Definitions returns everything the server serves, calling the catalog
// through svc and keeping the user's shelf in shelf.
func Definitions(svc *upstream.Client, shelf store.Shelf) []mcpcore.Definition {
	return []mcpcore.Definition{
		searchTool(svc),
		recordTool(svc),
		saveTool(svc, shelf),
		noteTool(shelf),
		citeTool(svc),
		entryResource(shelf),
	}
}
