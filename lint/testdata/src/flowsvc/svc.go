// Package flowsvc is a service in its own package, with a store's sentinel
// and a queue that runs upstream calls through closures.
package flowsvc

import (
	"context"
	"errors"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// ErrNoRow is the store's sentinel for a missing row.
var ErrNoRow = errors.New("no row")

// hint is the recovery hint the errors its tools map with ctx.FailFrom
// carry, which FailFrom keeps.
var hint = mcperr.WithRecovery("Call the tool again in a minute.")

type Client struct{}

func (c *Client) Article(ctx context.Context, id string) (string, error) {
	if id == "" {
		return "", ErrNoRow
	}
	return "", mcperr.Forbidden("no access to "+id, hint)
}

func (c *Client) Summary(ctx context.Context, id string) (string, error) {
	return "", mcperr.Unauthorized("key rejected")
}

func (c *Client) Busy(ctx context.Context) error {
	return mcperr.RateLimited("slow down", hint)
}

func (c *Client) Missing(ctx context.Context) error {
	return mcperr.NotFound("gone", hint)
}

// Queue runs jobs one at a time.
type Queue struct{ sem chan struct{} }

func (q *Queue) Do(ctx context.Context, job func() error) error {
	select {
	case q.sem <- struct{}{}:
	case <-ctx.Done():
		return mcperr.Timeout("queue wait")
	}
	defer func() { <-q.sem }()
	return job()
}

// Unreachable stamps a reason no tool declares: a typo.
func (c *Client) Unreachable(ctx context.Context) error {
	return mcperr.ServiceUnavailable("upstream down", mcperr.WithData(map[string]any{"reason": "upstream_unreachble"}))
}

// Throttled stamps a reason the tools that call it declare.
func (c *Client) Throttled(ctx context.Context) error {
	return mcperr.RateLimited("slow down", mcperr.WithData(map[string]any{"reason": "busy"}))
}

// Run runs a git-like operation: only a push needs write access.
func (c *Client) Run(ctx context.Context, op string, args ...string) error {
	if op == "push" && len(args) > 0 {
		return mcperr.Unauthorized("pushing needs a write key")
	}
	return nil
}

// Clone clones, through Run.
func (c *Client) Clone(ctx context.Context, url string) error { return c.Run(ctx, "clone", url) }

// Push pushes, through Run.
func (c *Client) Push(ctx context.Context, url string) error { return c.Run(ctx, "push", url) }

// Quota is the upstream's own throttling, told apart from the queue's by
// the reason it stamps.
func (c *Client) Quota(ctx context.Context) error {
	return mcperr.RateLimited("upstream quota", mcperr.WithData(map[string]any{"reason": "quota", "retryAfter": 120}), hint)
}
