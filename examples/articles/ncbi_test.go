package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/mcptest"
)

// The service path: ncbiFetch's errors, from mcperr.FromResponse, mapped
// onto the contract by ctx.FailFrom.
func TestUpstreamFailuresMappedOntoTheContract(t *testing.T) {
	c := mcptest.Start(t, info, definitions()...)
	busy := c.CallTool("fetch_articles", map[string]any{"pmids": []string{"upstream_busy"}})
	mcptest.AssertFailure(t, busy, queueFull, mcptest.DeclaredRecovery(),
		mcptest.Message("NCBI returned HTTP 429 Too Many Requests."),
		mcptest.Data("retryAfter", 30), mcptest.Data("status", 429), mcptest.Data("statusText", "Too Many Requests"))
	b, _ := json.Marshal(busy.StructuredContent)
	if text := string(b); strings.Contains(text, "c0ffee-secret") || !strings.Contains(text, "api_key=[REDACTED]") {
		t.Errorf("the upstream's key leaks, or the URL is gone: %s", text)
	}
	down := c.CallTool("fetch_articles", map[string]any{"pmids": []string{"upstream_down"}})
	mcptest.AssertFailure(t, down, ncbiDown, mcptest.DeclaredRecovery(),
		mcptest.Message("NCBI returned HTTP 503 Service Unavailable."), mcptest.Data("status", 503), mcptest.NoData("retryAfter"))
}
