package main

import (
	"testing"

	"github.com/seed417024ea/mcpcore/mcptest"
)

// One fuzz target per tool: mcptest.FuzzTool seeds each from the tool's
// input schema, and checks the framework's promises on every call. The
// seeds added here reach the branches a schema cannot name: the magic
// PMIDs of fetch_articles and the PMIDs of the library. "slow" is left
// out: its handler waits 5 s by design, which would only slow the fuzzer.
// The fuzzer's client declares no capabilities, so summarize_abstract and
// retract_article end at MissingClientCapability once the PMID is found.

func FuzzFetchArticles(f *testing.F) {
	for _, pmid := range []string{"plain", "data", "panic", "override", "queue_full", "ncbi_down"} {
		f.Add([]byte(`{"pmids":["` + pmid + `","1"]}`))
	}
	mcptest.FuzzTool(f, mcptest.NewServer(f, info, definitions()...), "fetch_articles")
}

func FuzzEcho(f *testing.F) {
	mcptest.FuzzTool(f, mcptest.NewServer(f, info, definitions()...), "echo")
}

func FuzzNoticeTool(f *testing.F) {
	mcptest.FuzzTool(f, mcptest.NewServer(f, info, definitions()...), "notice_tool")
}

func FuzzSummarizeAbstract(f *testing.F) {
	f.Add([]byte(`{"pmid":"31000001"}`))
	mcptest.FuzzTool(f, mcptest.NewServer(f, info, definitions()...), "summarize_abstract")
}

func FuzzRetractArticle(f *testing.F) {
	f.Add([]byte(`{"pmid":"31000001"}`))
	mcptest.FuzzTool(f, mcptest.NewServer(f, info, definitions()...), "retract_article")
}
