// Command articles is the reference server of mcpcore: a small article
// service whose tools exercise every error path of the framework. Clients,
// interop tests and the README compare against it.
//
// It serves stdio by default; MCP_TRANSPORT_TYPE=http serves Streamable HTTP
// on 127.0.0.1:3010/mcp.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/seed417024ea/mcpcore"
)

var info = mcpcore.Info{
	Name:    "articles",
	Version: "1.0.0",
	Title:   "Articles (mcpcore reference server)",
	Instructions: "Fetch articles by PMID with fetch_articles; read one item with the articles://items/{itemId} resource. " +
		"Every failure carries a code, a reason and, where there is one, a recovery hint.",
}

// definitions is everything the server serves.
func definitions() []mcpcore.Definition {
	return []mcpcore.Definition{echoTool, fetchArticles, noticeTool, itemResource, summarizePrompt}
}

func main() {
	srv, err := mcpcore.NewServer(info, nil, definitions()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := srv.Run(context.Background()); err != nil {
		srv.Logger().Error("mcpcore: server stopped with an error", "error", err)
		os.Exit(1)
	}
}
