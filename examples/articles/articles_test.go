package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

// syncBuffer collects log output written from several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// records decodes the JSON log records written so far.
func (b *syncBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(b.buf.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		out = append(out, r)
	}
	return out
}

// has reports whether a record's message contains msg.
func (b *syncBuffer) has(t *testing.T, msg string) bool {
	for _, r := range b.records(t) {
		if strings.Contains(r["msg"].(string), msg) {
			return true
		}
	}
	return false
}

// connect serves the example over in-memory transports and returns a client
// session and the server's log.
func connect(t *testing.T) (*mcp.ClientSession, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{
		Logger: slog.New(mcpcore.NewLogHandler(logs, slog.LevelDebug, true)),
		Getenv: func(string) string { return "" },
	}, definitions()...)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.MCPServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "articles-test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, logs
}

// wire returns v as a generic JSON value, for comparison with what a client
// of any language decodes.
func wire(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func parse(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expected JSON %s: %v", s, err)
	}
	return v
}

func equalJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	g, _ := json.Marshal(wire(t, got))
	w, _ := json.Marshal(parse(t, want))
	if !bytes.Equal(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", tool, err)
	}
	return res
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("got %d content blocks, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content[0] is %T, want text", res.Content[0])
	}
	return tc.Text
}

// TestFetchArticles checks every branch of fetch_articles on the wire: the
// text a model reads and the structured error a program reads.
func TestFetchArticles(t *testing.T) {
	cs, _ := connect(t)
	for _, tc := range []struct {
		name       string
		pmids      []string
		text       string
		structured string
	}{
		{
			name:       "empty fails no_match with the contract's recovery",
			pmids:      []string{},
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
			text:       "Error: No item 9\n\nRecovery: No item 9; try IDs 1-100 instead.",
			structured: `{"error":{"code":-32001,"message":"No item 9","data":{"reason":"no_match","recovery":{"hint":"No item 9; try IDs 1-100 instead."}}}}`,
		},
		{
			name:       "retryable entry defaults data.retryable",
			pmids:      []string{"queue_full"},
			text:       "Error: Queue at capacity\n\nRecovery: Wait 30 seconds and retry, or reduce batch size.",
			structured: `{"error":{"code":-32003,"message":"Queue at capacity","data":{"retryable":true,"reason":"queue_full","recovery":{"hint":"Wait 30 seconds and retry, or reduce batch size."}}}}`,
		},
		{
			name:       "no message falls back to When, no recovery without opting in",
			pmids:      []string{"ncbi_down"},
			text:       "Error: NCBI E-utilities unreachable after retries",
			structured: `{"error":{"code":-32000,"message":"NCBI E-utilities unreachable after retries","data":{"retryable":true,"reason":"ncbi_down"}}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, "fetch_articles", map[string]any{"pmids": tc.pmids})
			if !res.IsError {
				t.Errorf("isError = false, want true")
			}
			if got := text(t, res); got != tc.text {
				t.Errorf("content[0].text:\n got %q\nwant %q", got, tc.text)
			}
			equalJSON(t, "structuredContent", res.StructuredContent, tc.structured)
		})
	}
}

func TestFetchArticlesSuccess(t *testing.T) {
	cs, _ := connect(t)
	res := call(t, cs, "fetch_articles", map[string]any{"pmids": []string{"123", "456"}})
	if res.IsError {
		t.Fatalf("isError = true: %s", text(t, res))
	}
	equalJSON(t, "structuredContent", res.StructuredContent, `{"articles":["123","456"]}`)
	if got, want := text(t, res), "{\n  \"articles\": [\n    \"123\",\n    \"456\"\n  ]\n}"; got != want {
		t.Errorf("content[0].text = %q, want %q", got, want)
	}
	// The success result carries no isError key at all.
	if m := wire(t, res).(map[string]any); m["isError"] != nil {
		t.Errorf("success result has isError = %v", m["isError"])
	}
}

func TestFetchArticlesInvalidInput(t *testing.T) {
	cs, _ := connect(t)
	res := call(t, cs, "fetch_articles", map[string]any{"pmids": "123", "limt": 5})
	if !res.IsError {
		t.Fatal("isError = false, want true")
	}
	equalJSON(t, "structuredContent", res.StructuredContent, `{"error":{"code":-32007,
		"message":"unrecognized key \"limt\" (+1 more)",
		"data":{"issues":[
			{"path":[],"message":"unrecognized key \"limt\"","keyword":"additionalProperties"},
			{"path":["pmids"],"message":"expected array or null, received string","keyword":"type"}]}}}`)
}

// TestFetchArticlesCancelled cancels the slow branch and checks that the
// handler lets go at once and that the server logs the cancellation at info,
// without a stack.
func TestFetchArticlesCancelled(t *testing.T) {
	cs, logs := connect(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fetch_articles", Arguments: map[string]any{"pmids": []string{"slow"}}})
		done <- err
	}()
	// Wait until the handler runs, then cancel the call.
	waitFor(t, func() bool { return logs.has(t, "slow: waiting") })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool error = %v, want context.Canceled", err)
	}
	var rec map[string]any
	waitFor(t, func() bool {
		for _, r := range logs.records(t) {
			if strings.HasPrefix(r["msg"].(string), "Error in tool:fetch_articles") {
				rec = r
				return true
			}
		}
		return false
	})
	if rec["level"] != "INFO" || rec["code"] != float64(-32011) || rec["stack"] != nil {
		t.Errorf("cancellation record = %v, want level INFO, code -32011, no stack", rec)
	}
}

// waitFor polls cond for up to five seconds; it never asserts on time.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestNoticeTool(t *testing.T) {
	cs, logs := connect(t)
	res := call(t, cs, "notice_tool", map[string]any{})
	if got, want := text(t, res), "Error: Soft limit exceeded\n\nRecovery: Reduce the request size and try again later."; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	equalJSON(t, "structuredContent", res.StructuredContent, `{"error":{"code":-32007,"message":"Soft limit exceeded","data":{"reason":"soft_limit","recovery":{"hint":"Reduce the request size and try again later."}}}}`)
	var levels []any
	for _, r := range logs.records(t) {
		if strings.HasPrefix(r["msg"].(string), "Error in tool:notice_tool") {
			levels = append(levels, r["level"])
		}
	}
	if len(levels) != 1 || levels[0] != "NOTICE" {
		t.Errorf("notice_tool failure records at levels %v, want exactly one NOTICE", levels)
	}

	res = call(t, cs, "notice_tool", map[string]any{"fail": false})
	equalJSON(t, "structuredContent", res.StructuredContent, `{"ok":true}`)
}

func TestEcho(t *testing.T) {
	cs, _ := connect(t)
	res := call(t, cs, "echo", map[string]any{"message": "hello"})
	equalJSON(t, "structuredContent", res.StructuredContent, `{"message":"hello"}`)
}

func TestToolsListPublishesContracts(t *testing.T) {
	cs, _ := connect(t)
	list, err := cs.ListTools(context.Background(), nil)
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
	equalJSON(t, "_meta", fetchTool.Meta[mcpcore.ContractMetaKey], `[
		{"reason":"no_match","code":-32001,"when":"No requested PMID returned data","recovery":"Try pubmed_search_articles to discover valid PMIDs first."},
		{"reason":"queue_full","code":-32003,"when":"Local request queue is at capacity","recovery":"Wait 30 seconds and retry, or reduce batch size.","retryable":true},
		{"reason":"ncbi_down","code":-32000,"when":"NCBI E-utilities unreachable after retries","recovery":"NCBI is degraded; retry in a few minutes.","retryable":true}]`)
}

func TestItemResource(t *testing.T) {
	cs, _ := connect(t)
	ctx := context.Background()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "articles://items/42"})
	if err != nil {
		t.Fatal(err)
	}
	equalJSON(t, "contents", res.Contents, `[{"uri":"articles://items/42","mimeType":"application/json","text":"{\n  \"itemId\": \"42\",\n  \"ok\": true\n}"}]`)

	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "articles://items/missing"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("ReadResource(missing) error = %v, want a JSON-RPC error", err)
	}
	equalJSON(t, "error", werr, `{"code":-32001,"message":"Item missing not found","data":{"itemId":"missing"}}`)
}

func TestSummarizePrompt(t *testing.T) {
	cs, _ := connect(t)
	ctx := context.Background()
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_article", Arguments: map[string]string{"pmid": "123"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 || !strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, "PMID 123") {
		t.Errorf("messages = %v, want one naming PMID 123", wire(t, res.Messages))
	}
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	equalJSON(t, "arguments", list.Prompts[0].Arguments, `[{"name":"pmid","description":"the PubMed ID of the article to summarize","required":true}]`)

	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_article"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != -32007 {
		t.Fatalf("GetPrompt without pmid: error = %v, want JSON-RPC -32007", err)
	}
}
