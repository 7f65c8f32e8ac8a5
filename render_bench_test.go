package mcpcore

import (
	"testing"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// BenchmarkNewWireError is what a declared failure with a recovery hint
// costs to render, from the handler's *mcperr.Error to the bytes both
// surfaces send.
func BenchmarkNewWireError(b *testing.B) {
	e := mcperr.NotFound("None of 0 PMIDs returned data",
		mcperr.WithData(map[string]any{"reason": "no_match"}),
		mcperr.WithRecovery("Try pubmed_search_articles to discover valid PMIDs first."))
	b.ReportAllocs()
	for b.Loop() {
		f, _ := newWireError(e)
		_ = f.toolResult()
	}
}
