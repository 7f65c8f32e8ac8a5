package main

import (
	"maps"
	"slices"
	"strings"

	"github.com/seed417024ea/mcpcore"
)

// search_articles searches the library. Its input says every constraint in
// struct tags, one per JSON Schema keyword: the published schema carries
// them, and a call that breaks any gets one ValidationError listing each
// issue, some with a message of their own.

type searchInput struct {
	Query string   `json:"query" jsonschema:"Words to find in the titles and abstracts of the library" minLength:"3" maxLength:"200" minLengthMessage:"A query needs at least 3 characters, such as \"sleep\"."`
	Limit int      `json:"limit,omitempty" jsonschema:"The most articles to return" minimum:"1" maximum:"20" default:"5"`
	PMIDs []string `json:"pmids,omitempty" jsonschema:"Search only these PubMed IDs" maxItems:"10" uniqueItems:"true" pattern:"^[0-9]+$" patternMessage:"A PMID is digits only, such as 31000001."`
}

type searchHit struct {
	PMID  string `json:"pmid" jsonschema:"the article's PubMed ID"`
	Title string `json:"title" jsonschema:"the article's title"`
}

type searchOutput struct {
	Articles []searchHit `json:"articles" jsonschema:"the matching articles, by PMID; empty when none matches"`
}

var searchArticles = mcpcore.Tool[searchInput, searchOutput]{
	Name:        "search_articles",
	Description: "Search the library's titles and abstracts for every word of a query.",
	Handler: func(_ *mcpcore.Context, in searchInput) (searchOutput, error) {
		return searchOutput{Articles: search(in.Query, in.PMIDs, in.Limit)}, nil
	},
}

// search returns up to limit articles, among only (all when empty), whose
// title or abstract holds every word of query, ignoring case.
func search(query string, only []string, limit int) []searchHit {
	words := strings.Fields(strings.ToLower(query))
	library.mu.Lock()
	defer library.mu.Unlock()
	hits := []searchHit{}
	for _, pmid := range slices.Sorted(maps.Keys(library.articles)) {
		if len(hits) == limit {
			break
		}
		if len(only) > 0 && !slices.Contains(only, pmid) {
			continue
		}
		a := library.articles[pmid]
		text := strings.ToLower(a.Title + " " + a.Abstract)
		if !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(text, w) }) {
			hits = append(hits, searchHit{PMID: a.PMID, Title: a.Title})
		}
	}
	return hits
}
