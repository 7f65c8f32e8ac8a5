package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// TestMain runs the tests, then fails the run when a reason a tool declares
// was never seen on the wire by a test (mcptest.RequireCoverage).
func TestMain(m *testing.M) {
	code := mcptest.RequireCoverage(m, definitions()...)
	removeBinary()
	os.Exit(code)
}

// TestFetchArticles checks every branch of fetch_articles on the wire: the
// text a model reads and the structured error a program reads, exactly; a
// declared failure is also checked against its declaration.
func TestFetchArticles(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pmids      []string
		declared   *mcpcore.Failure // nil for a failure the contract does not declare
		text       string
		structured string
	}{
		{
			name:       "empty fails no_match with the contract's recovery",
			pmids:      []string{},
			declared:   &noMatch,
			text:       "Error: None of 0 PMIDs returned data\n\nRecovery: Try pubmed_search_articles to discover valid PMIDs first.",
			structured: `{"error":{"code":-32001,"message":"None of 0 PMIDs returned data","data":{"reason":"no_match","recovery":{"hint":"Try pubmed_search_articles to discover valid PMIDs first."}}}}`,
		},
		{
			name:       "plain Go error is classified and carries no data",
			pmids:      []string{"plain"},
			text:       "Error: Item not found in upstream",
			structured: `{"error":{"code":-32001,"message":"Item not found in upstream"}}`,
		},
		{
			name:       "mcperr factory keeps its data",
			pmids:      []string{"data"},
			text:       "Error: Item 7 not found",
			structured: `{"error":{"code":-32001,"message":"Item 7 not found","data":{"itemId":"7"}}}`,
		},
		{
			name:       "panic is a generic internal error",
			pmids:      []string{"panic"},
			text:       "Error: An internal error occurred in tool fetch_articles.",
			structured: `{"error":{"code":-32603,"message":"An internal error occurred in tool fetch_articles."}}`,
		},
		{
			name:       "recovery hint overridden at the failure site",
			pmids:      []string{"override"},
			declared:   &noMatch,
			text:       "Error: No item 9\n\nRecovery: No item 9; try IDs 1-100 instead.",
			structured: `{"error":{"code":-32001,"message":"No item 9","data":{"reason":"no_match","recovery":{"hint":"No item 9; try IDs 1-100 instead."}}}}`,
		},
		{
			name:       "retryable entry defaults data.retryable",
			pmids:      []string{"queue_full"},
			declared:   &queueFull,
			text:       "Error: Queue at capacity\n\nRecovery: Wait 30 seconds and retry, or reduce batch size.",
			structured: `{"error":{"code":-32003,"message":"Queue at capacity","data":{"retryable":true,"reason":"queue_full","recovery":{"hint":"Wait 30 seconds and retry, or reduce batch size."}}}}`,
		},
		{
			name:       "no message falls back to When, no recovery without opting in",
			pmids:      []string{"ncbi_down"},
			declared:   &ncbiDown,
			text:       "Error: NCBI E-utilities unreachable after retries",
			structured: `{"error":{"code":-32000,"message":"NCBI E-utilities unreachable after retries","data":{"retryable":true,"reason":"ncbi_down"}}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mcptest.Start(t, info, definitions()...)
			res := c.CallTool("fetch_articles", map[string]any{"pmids": tc.pmids})
			if !res.IsError {
				t.Errorf("isError = false, want true")
			}
			if got := wiretest.Text(t, res); got != tc.text {
				t.Errorf("content[0].text:\n got %q\nwant %q", got, tc.text)
			}
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, tc.structured)
			if tc.declared != nil {
				mcptest.AssertFailure(t, res, *tc.declared)
			}
		})
	}
}

func TestFetchArticlesSuccess(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	res := c.CallTool("fetch_articles", map[string]any{"pmids": []string{"123", "456"}})
	if res.IsError {
		t.Fatalf("isError = true: %s", wiretest.Text(t, res))
	}
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"articles":["123","456"]}`)
	if got, want := wiretest.Text(t, res), "{\n  \"articles\": [\n    \"123\",\n    \"456\"\n  ]\n}"; got != want {
		t.Errorf("content[0].text = %q, want %q", got, want)
	}
	// The success result carries no isError key at all.
	if m := wiretest.JSON(t, res).(map[string]any); m["isError"] != nil {
		t.Errorf("success result has isError = %v", m["isError"])
	}
}

func TestFetchArticlesInvalidInput(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	res := c.CallTool("fetch_articles", map[string]any{"pmids": "123", "limt": 5})
	if !res.IsError {
		t.Fatal("isError = false, want true")
	}
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"error":{"code":-32007,
		"message":"2 issues: unrecognized key \"limt\"; at pmids: expected array, received string",
		"data":{"issues":[
			{"path":[],"message":"unrecognized key \"limt\"","keyword":"additionalProperties"},
			{"path":["pmids"],"message":"expected array, received string","keyword":"type"}]}}}`)
}

// TestFetchArticlesCancelled cancels the slow branch and checks that the
// handler lets go at once and that the server logs the cancellation at info,
// without a stack.
func TestFetchArticlesCancelled(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	callCancelled(t, c)
	var recs []map[string]any
	c.WaitFor("the cancellation record", func() bool {
		recs = c.Logs().Find("Error in tool:fetch_articles")
		return len(recs) > 0
	})
	if rec := recs[0]; rec["level"] != "INFO" || rec["code"] != float64(-32011) || rec["stack"] != nil {
		t.Errorf("cancellation record = %v, want level INFO, code -32011, no stack", rec)
	}
}

// callCancelled calls the slow branch of fetch_articles, cancels the call
// once its handler runs, and checks that the call ends at once.
func callCancelled(t *testing.T, c *mcptest.Client) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "fetch_articles", Arguments: map[string]any{"pmids": []string{"slow"}}})
		done <- err
	}()
	c.WaitFor("the slow handler to run", func() bool { return len(c.Logs().Find("slow: waiting")) > 0 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool error = %v, want context.Canceled", err)
	}
}

func TestNoticeTool(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	res := c.CallTool("notice_tool", map[string]any{})
	mcptest.AssertFailure(t, res, softLimit, mcptest.DeclaredRecovery(), mcptest.Message("Soft limit exceeded"))
	var levels []any
	for _, r := range c.Logs().Find("Error in tool:notice_tool:") {
		levels = append(levels, r["level"])
	}
	if len(levels) != 1 || levels[0] != "NOTICE" {
		t.Errorf("notice_tool failure records at levels %v, want exactly one NOTICE", levels)
	}

	res = c.CallTool("notice_tool", map[string]any{"fail": false})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"ok":true}`)
}

func TestEcho(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	res := c.CallTool("echo", map[string]any{"message": "hello"})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"message":"hello"}`)
}

func TestToolsListPublishesContracts(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	list, err := c.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var fetchTool *mcp.Tool
	for _, tool := range list.Tools {
		if tool.Name == "fetch_articles" {
			fetchTool = tool
		}
	}
	if fetchTool == nil {
		t.Fatal("fetch_articles not listed")
	}
	wiretest.AssertJSON(t, "_meta", fetchTool.Meta[contract.MetaKey], `[
		{"reason":"no_match","code":-32001,"when":"No requested PMID returned data","recovery":"Try pubmed_search_articles to discover valid PMIDs first."},
		{"reason":"queue_full","code":-32003,"when":"Local request queue is at capacity","recovery":"Wait 30 seconds and retry, or reduce batch size.","retryable":true},
		{"reason":"ncbi_down","code":-32000,"when":"NCBI E-utilities unreachable after retries","recovery":"NCBI is degraded; retry in a few minutes.","retryable":true}]`)
}

func TestItemResource(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	res, err := c.ReadResource("articles://items/42")
	if err != nil {
		t.Fatal(err)
	}
	wiretest.AssertJSON(t, "contents", res.Contents, `[{"uri":"articles://items/42","mimeType":"application/json","text":"{\n  \"itemId\": \"42\",\n  \"ok\": true\n}"}]`)

	_, err = c.ReadResource("articles://items/missing")
	assertProtocolError(t, err, `{"code":-32001,"message":"Item missing not found","data":{"itemId":"missing"}}`)
}

func TestSummarizePrompt(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	res, err := c.GetPrompt("summarize_article", map[string]string{"pmid": "123"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 || !strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, "PMID 123") {
		t.Errorf("messages = %v, want one naming PMID 123", wiretest.JSON(t, res.Messages))
	}
	list, err := c.Session.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.AssertJSON(t, "arguments", list.Prompts[0].Arguments, `[{"name":"pmid","description":"the PubMed ID of the article to summarize","required":true}]`)

	_, err = c.GetPrompt("summarize_article", nil)
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != -32007 {
		t.Fatalf("GetPrompt without pmid: error = %v, want JSON-RPC -32007", err)
	}
}
