// Package ncbi is the demo's service: it calls httpx.
package ncbi

import (
	"context"
	"fmt"

	"example.com/demo/ncbi/httpx"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Fetch fetches one article.
func Fetch(ctx context.Context, pmid string) (string, error) {
	b, err := httpx.Get(ctx, pmid)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", pmid, err)
	}
	return string(b), nil
}

// Lookup finds an article's PMID by DOI. Its reason for an unreachable
// upstream is misspelt.
func Lookup(ctx context.Context, doi string) (string, error) {
	if doi == "" {
		return "", mcperr.NotFound("no article with that DOI")
	}
	return "", mcperr.ServiceUnavailable("NCBI is down", mcperr.WithData(map[string]any{"reason": "ncbi_unreachble"}))
}
