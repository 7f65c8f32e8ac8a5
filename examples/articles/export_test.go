package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// TestExportArticlesRunsAsATask: a client that declared the tasks
// extension gets a task in place of the answer, and the task completes
// with the export.
func TestExportArticlesRunsAsATask(t *testing.T) {
	c := start(t, "", nil)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := c.Server().MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcpclient.NewClient(&mcp.Implementation{Name: "export-test", Version: "1"}, nil).Connect(ctx, mcpclient.Transport(ct), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "export_articles", Arguments: map[string]any{"query": "soil diversity"}})
	if err != nil {
		t.Fatal(err)
	}
	task := mcpclient.TaskOf(res)
	if task == nil || task.Status != "working" {
		t.Fatalf("tools/call export_articles = %+v, want a working task", res)
	}
	res, err = mcpclient.AwaitTask(ctx, cs, "export_articles", res)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"count":1,"ris":`+
		mustJSON(t, "TY  - JOUR\nAN  - 31000003\nTI  - "+corpus[2].Title+"\nAB  - "+corpus[2].Abstract+"\nER  - \n")+`}`)
}

// TestExportArticles: through the kit, whose client takes tasks, and
// through a client that does not, the export answers the same: its
// result, and its declared failure no_match, byte for byte.
func TestExportArticles(t *testing.T) {
	tasks := start(t, "", nil)
	plain := mcptest.StartWith(t, info, &mcptest.Options{NoTasks: true}, definitions()...)

	t.Run("result", func(t *testing.T) {
		res := tasks.For(t).CallTool("export_articles", map[string]any{"query": "rose"})
		if res.IsError {
			t.Fatalf("result = %+v", res)
		}
		var out exportOutput
		if err := json.Unmarshal([]byte(mustJSON(t, res.StructuredContent)), &out); err != nil {
			t.Fatal(err)
		}
		if out.Count != 2 || strings.Count(out.RIS, "TY  - JOUR\n") != 2 || !strings.Contains(out.RIS, "AN  - 31000002\n") || !strings.Contains(out.RIS, "AN  - 31000003\n") {
			t.Errorf("export = %+v, want the two articles holding \"rose\"", out)
		}
		same := plain.For(t).CallTool("export_articles", map[string]any{"query": "rose"})
		if a, b := answer(t, res), answer(t, same); a != b {
			t.Errorf("the task's result\n%s\n!= the result answered at once\n%s", a, b)
		}
	})

	t.Run("no_match", func(t *testing.T) {
		res := tasks.For(t).CallTool("export_articles", map[string]any{"query": "quantum gravity"})
		mcptest.AssertFailure(t, res, exportNoMatch, mcptest.DeclaredRecovery(),
			mcptest.Message(`No article of the library matches "quantum gravity"`))
		if got, want := wiretest.Text(t, res), "Error: No article of the library matches \"quantum gravity\"\n\n"+
			"Recovery: Search with fewer or other words; search_articles shows what a query matches."; got != want {
			t.Errorf("text = %q, want %q", got, want)
		}
		same := plain.For(t).CallTool("export_articles", map[string]any{"query": "quantum gravity"})
		if a, b := answer(t, res), answer(t, same); a != b {
			t.Errorf("the task's failure\n%s\n!= the failure answered at once\n%s", a, b)
		}
	})
}

// answer is what the tool answered in res: its content, structured
// content and isError, without the _meta and resultType of the message
// that carried them.
func answer(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	return mustJSON(t, []any{res.Content, res.StructuredContent, res.IsError})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
