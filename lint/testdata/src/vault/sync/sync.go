// Package sync is a service in its own package that runs a git-like
// upstream through one variadic helper and one helper taking its options
// as a struct: only a push needs the write key, and the test of it is on a
// slice element or a field, not on a plain parameter.
package sync

import (
	"context"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// Client runs operations on the vault's remote.
type Client struct{ writeKey string }

// git runs a command: only "push" needs the write key.
func (c *Client) git(ctx context.Context, args ...string) error {
	if len(args) > 0 && args[0] == "push" && c.writeKey == "" {
		return mcperr.Unauthorized("pushing needs a write key", mcperr.WithData(map[string]any{"reason": "no_write_key"}))
	}
	return nil
}

// Clone clones, through git with a constant first argument.
func (c *Client) Clone(ctx context.Context, url string) error {
	return c.git(ctx, "clone", url)
}

// Push pushes, through git.
func (c *Client) Push(ctx context.Context, url string) error {
	return c.git(ctx, "push", url)
}

// Pull passes a slice literal.
func (c *Client) Pull(ctx context.Context, url string) error {
	return c.git(ctx, []string{"pull", url}...)
}

// Git runs what its caller says.
func (c *Client) Git(ctx context.Context, args ...string) error {
	return c.git(ctx, args...)
}

// Op says what an operation is.
type Op struct {
	Verb   string
	Remote string
}

// do runs an operation: only a push needs the write key.
func (c *Client) do(ctx context.Context, op Op) error {
	if op.Verb == "push" && c.writeKey == "" {
		return mcperr.Unauthorized("pushing needs a write key", mcperr.WithData(map[string]any{"reason": "no_write_key"}))
	}
	return nil
}

// Fetch fetches, through do with a literal of constant fields.
func (c *Client) Fetch(ctx context.Context, remote string) error {
	return c.do(ctx, Op{Verb: "fetch", Remote: remote})
}

// Publish publishes, through do.
func (c *Client) Publish(ctx context.Context, remote string) error {
	return c.do(ctx, Op{Verb: "push", Remote: remote})
}

// Do runs what its caller says.
func (c *Client) Do(ctx context.Context, op *Op) error {
	return c.do(ctx, *op)
}
