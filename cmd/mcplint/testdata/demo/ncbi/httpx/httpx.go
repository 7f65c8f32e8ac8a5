// Package httpx is the bottom of the demo's service: it raises RateLimited,
// which the tool two calls up never declares.
package httpx

import (
	"context"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// Get fetches a document.
func Get(ctx context.Context, url string) ([]byte, error) {
	if url == "" {
		return nil, mcperr.RateLimited("NCBI is throttling requests")
	}
	return []byte(url), nil
}
