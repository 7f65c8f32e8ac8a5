// Package b is a service: it calls c and adds a code of its own.
package b

import (
	"context"
	"fmt"

	"c"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Client fetches articles.
type Client struct{}

// Fetch returns c.Get's failures wrapped with %w, and NotFound with a reason.
func (cl *Client) Fetch(ctx context.Context, id string) (string, error) { // want Fetch:"^codes NotFound, RateLimited via c.Get, ServiceUnavailable via c.Get; reasons no_match:NotFound, rate_limited:RateLimited via c.Get; fromResponse via c.Get$"
	resp, err := c.Get(ctx, "https://example.com/"+id)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", id, err)
	}
	if resp.ContentLength == 0 {
		return "", mcperr.NotFound("no such article", mcperr.WithData(map[string]any{"id": id, "reason": "no_match"}))
	}
	if err := c.Noisy(); err != nil {
		return "", err
	}
	return "ok", nil
}

// Summary formats c.Get's error with %v: the code does not survive.
func (cl *Client) Summary(ctx context.Context) error {
	if _, err := c.Get(ctx, "https://example.com/"); err != nil {
		return fmt.Errorf("summary: %v", err)
	}
	return nil
}

// Wrap hands back what it is given, so callers keep their codes.
func Wrap(op string, err error) error { // want Wrap:"^params 1$"
	return fmt.Errorf("%s: %w", op, err)
}

// Cause keeps err as a cause only: the code is InternalError.
func Cause(err error) error { // want Cause:"^codes InternalError$"
	return mcperr.InternalError("failed", mcperr.WithCause(err))
}

// Handle is a handler declared in another package than its tool.
func Handle(ctx *mcpcore.Context, id string) (string, error) { // want Handle:"^codes RateLimited; reasons throttled:RateLimited$"
	return "", ctx.Fail(c.Throttled, "", ctx.RecoveryFor(c.Throttled))
}
