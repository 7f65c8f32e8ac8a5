// Package ncbi is the demo's service: it calls httpx.
package ncbi

import (
	"context"
	"fmt"

	"example.com/demo/ncbi/httpx"
)

// Fetch fetches one article.
func Fetch(ctx context.Context, pmid string) (string, error) {
	b, err := httpx.Get(ctx, pmid)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", pmid, err)
	}
	return string(b), nil
}
