package mcpcore_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TestOneScrubbedTextOnEverySurface: a service's *mcperr.Error whose
// message holds a secret by its shape (issue 35, item 4) reads the same,
// scrubbed, to the client, in the log record, in the span's status and in
// its exception event.
func TestOneScrubbedTextOnEverySurface(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"GET https://api.example.com/v1/notes?api_key=SECRETabc123def456&x=1 failed",
		"upstream said token=SECRETabc123def456 is revoked",
		"header Authorization: Bearer SECRETabc123def456 rejected",
	} {
		tool := mcpcore.Tool[benchInput, benchOutput]{Name: "fetch", Description: "Fetch.",
			Handler: func(*mcpcore.Context, benchInput) (benchOutput, error) {
				return benchOutput{}, mcperr.ServiceUnavailable(raw)
			}}
		o := observe(t, tool)
		res, err := o.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "fetch", Arguments: map[string]any{"message": "x"}})
		if err != nil || !res.IsError {
			t.Fatalf("fetch = %v, %v", res, err)
		}
		client := strings.TrimPrefix(res.Content[0].(*mcp.TextContent).Text, "Error: ")
		if strings.Contains(client, "SECRET") {
			t.Fatalf("the client got %q", client)
		}
		failures := o.logs.Failures(t, "fetch")
		spans := o.spans.Ended()
		if len(failures) != 1 || len(spans) != 1 || len(spans[0].Events()) != 1 {
			t.Fatalf("%d records, %d spans", len(failures), len(spans))
		}
		if got := failures[0]["msg"]; got != "Error in tool:fetch: "+client {
			t.Errorf("the log record says %q, the client %q", got, client)
		}
		if got := spans[0].Status().Description; got != client {
			t.Errorf("the span's status says %q, the client %q", got, client)
		}
		for _, a := range spans[0].Events()[0].Attributes {
			if a.Key == "exception.message" && a.Value.AsString() != client {
				t.Errorf("the exception event says %q, the client %q", a.Value.AsString(), client)
			}
		}
	}
}
