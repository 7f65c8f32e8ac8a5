// Command realserver is an MCP server over a bibliographic catalog: search
// it, get and cite its records, and keep a shelf of saved ones. It is the
// review corpus of mcplint (issue 19): a server shaped as users write
// them, which mcplint must pass clean, and onto which the review harness
// (cmd/mcplint/internal/review) plants one mistake at a time.
//
// It reads CATALOG_URL and CATALOG_API_KEY, and serves stdio by default;
// MCP_TRANSPORT_TYPE=http serves Streamable HTTP.
package main

import (
	"fmt"
	"os"
	"time"

	"example.com/realserver/store"
	"example.com/realserver/tools"
	"example.com/realserver/upstream"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
)

var info = mcpcore.Info{
	Name:    "catalog",
	Version: "0.3.0",
	Instructions: "Find works with search_catalog, read one with get_record, format it with cite_record. " +
		"save_record keeps a record on the user's shelf; update_note changes its note; shelf://entries/{recordId} reads it.",
}

func main() {
	svc, err := upstream.New(upstream.Config{
		BaseURL:     os.Getenv("CATALOG_URL"),
		APIKey:      os.Getenv("CATALOG_API_KEY"),
		Concurrency: 4,
		QueueWait:   2 * time.Second,
		Timeout:     30 * time.Second,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(1)
	}
	app.Main(info, nil, tools.Definitions(svc, store.NewMemory())...)
}
