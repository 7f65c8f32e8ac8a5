// Command articles is the reference server of mcpcore: a small article
// service whose tools exercise every error path of the framework, and every
// exchange a tool can have with its client. Clients, interop tests and the
// docs compare against it.
//
// It serves seven tools, one resource template and one prompt:
//   - echo sends back its message;
//   - fetch_articles fails in a different way for each magic first PMID;
//   - search_articles searches the library; its input declares its
//     constraints in struct tags only;
//   - notice_tool fails with a declared failure logged at notice;
//   - summarize_abstract reports its progress and asks the client's model
//     for a summary (sampling);
//   - retract_article asks the user to confirm (elicitation), changes the
//     in-memory library and notifies the subscribers of the changed item;
//   - export_articles exports the articles a query matches as RIS records,
//     paced at NCBI's three requests a second: a call that runs past 250 ms
//     becomes a task for a client that declared the tasks extension
//     (io.modelcontextprotocol/tasks), which it polls to the same result or
//     declared failure (no_match) it would have had at once;
//   - articles://items/{itemId} reads an item; it accepts subscriptions and
//     completes itemId with the library's PMIDs;
//   - the summarize_article prompt asks the model to fetch and summarize.
//
// It serves stdio by default; MCP_TRANSPORT_TYPE=http serves Streamable HTTP
// on 127.0.0.1:3010/mcp.
package main

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/redis"
)

var info = mcpcore.Info{
	Name:    "articles",
	Version: "1.0.0",
	Title:   "Articles (mcpcore reference server)",
	Instructions: "Fetch articles by PMID with fetch_articles, or find them with search_articles and export them with export_articles; read one item with the articles://items/{itemId} resource. " +
		"summarize_abstract summarizes an article of the library with the client's model; retract_article retracts one once the user confirms. " +
		"Every failure carries a code, a reason and, where there is one, a recovery hint.",
}

// definitions is everything the server serves.
func definitions() []mcpcore.Definition {
	return []mcpcore.Definition{echoTool, fetchArticles, searchArticles, exportArticles, noticeTool, summarizeAbstract, retractArticle, itemResource, summarizePrompt}
}

// main reads the configuration from the environment, then serves until
// SIGINT or SIGTERM; a bad setting stops it at start, naming the variable.
func main() {
	// MCP_REDIS_URL: replicas share notifications and quotas.
	app.Main(info, &app.Options{OpenRedis: redis.Open, OTLP: otlpExporters}, definitions()...)
}
