package main

import (
	"context"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// TestSearchArticlesSaysItsConstraintsInTags: the input schema that
// tools/list publishes carries every constraint of searchInput's struct
// tags, messages included; a call breaking several gets one
// ValidationError listing each issue at its path, with the tag's message
// where there is one; a call that keeps them is answered.
func TestSearchArticlesSaysItsConstraintsInTags(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	list, err := c.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	for _, tool := range list.Tools {
		if tool.Name == "search_articles" {
			schema = tool.InputSchema
		}
	}
	wiretest.AssertJSON(t, "inputSchema", schema, `{
		"type": "object",
		"additionalProperties": false,
		"required": ["query"],
		"properties": {
			"query": {"type": "string", "description": "Words to find in the titles and abstracts of the library",
				"minLength": 3, "maxLength": 200,
				"errorMessage": {"minLength": "A query needs at least 3 characters, such as \"sleep\"."}},
			"limit": {"type": "integer", "description": "The most articles to return", "minimum": 1, "maximum": 20, "default": 5},
			"pmids": {"type": "array", "description": "Search only these PubMed IDs", "maxItems": 10, "uniqueItems": true,
				"items": {"type": "string", "pattern": "^[0-9]+$", "errorMessage": {"pattern": "A PMID is digits only, such as 31000001."}}}
		}
	}`)

	res := c.CallTool("search_articles", map[string]any{"query": "zz", "limit": 50, "pmids": []string{"31000001", "x1", "31000001"}})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"error": {"code": -32007,
		"message": "4 issues: at limit: expected a number <= 20, received 50; at pmids: expected unique items, items 0 and 2 are equal; at pmids[1]: A PMID is digits only, such as 31000001.; at query: A query needs at least 3 characters, such as \"sleep\".",
		"data": {"issues": [
			{"keyword": "maximum", "message": "expected a number <= 20, received 50", "path": ["limit"]},
			{"keyword": "uniqueItems", "message": "expected unique items, items 0 and 2 are equal", "path": ["pmids"]},
			{"keyword": "pattern", "message": "A PMID is digits only, such as 31000001.", "path": ["pmids", 1]},
			{"keyword": "minLength", "message": "A query needs at least 3 characters, such as \"sleep\".", "path": ["query"]}]}}}`)

	res = c.CallTool("search_articles", map[string]any{"query": "Sleep memory"})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent,
		`{"articles": [{"pmid": "31000001", "title": "Nightly sleep duration and working memory in adolescents: a two-year cohort"}]}`)
	res = c.CallTool("search_articles", map[string]any{"query": "sleep", "pmids": []string{"31000002"}})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"articles": []}`)
}
