package main

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

type summarizeArgs struct {
	PMID string `json:"pmid" jsonschema:"the PubMed ID of the article to summarize"`
}

var summarizePrompt = mcpcore.Prompt[summarizeArgs]{
	Name:        "summarize_article",
	Description: "Ask the model to fetch and summarize one article.",
	Handler: func(_ *mcpcore.Context, a summarizeArgs) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{{
			Role: "user",
			Content: &mcp.TextContent{
				Text: "Fetch the article with PMID " + a.PMID + " using fetch_articles, then summarize it in three sentences.",
			},
		}}, nil
	},
}
