//lint:file-ignore SA1019 sampling is deprecated from protocol 2026-07-28 (SEP-2577) but stays in the protocol through its deprecation window; the fuzzer's client answers it.

package main

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/mcptest"
)

// One fuzz target per tool: mcptest.FuzzTool seeds each from the tool's
// input schema, and checks the framework's promises on every call. The
// seeds added here reach the branches a schema cannot name: the magic
// PMIDs of fetch_articles and the PMIDs of the library. "slow" is left
// out: its handler waits 5 s by design, which would only slow the fuzzer.
// The clients of summarize_abstract and retract_article answer the
// server's questions, so that the fuzzer reaches what those tools do
// after asking: the summary, its check, the retraction and its update.

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
	model := func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "A summary."}, Model: "fuzz", Role: "assistant"}, nil
	}
	mcptest.FuzzToolWith(f, mcptest.NewServer(f, info, definitions()...), "summarize_abstract",
		&mcp.ClientOptions{CreateMessageHandler: model})
}

func FuzzRetractArticle(f *testing.F) {
	f.Add([]byte(`{"pmid":"31000001"}`))
	user := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true, "reason": "fuzzed"}}, nil
	}
	mcptest.FuzzToolWith(f, mcptest.NewServer(f, info, definitions()...), "retract_article",
		&mcp.ClientOptions{ElicitationHandler: user})
}
