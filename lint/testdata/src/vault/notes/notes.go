// Package notes is a service in its own package, written as the authors of
// a published server wrote it: every upstream status is classified into a
// reason stamped through a small helper closure, and the request is a
// closure kept in a variable, called directly, handed to mcperr.Retry, to
// a queue, or kept in a field.
package notes

import (
	"context"
	"net/http"
	"strings"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// Client reads notes from the upstream vault.
type Client struct {
	hc *http.Client
	// hooks are run by name: an element of a map, which the analysis
	// cannot follow.
	hooks map[string]func(ctx context.Context) error
	// send is set by New: a request function kept in a field.
	send func(ctx context.Context, path string) (*http.Response, error)
}

// New builds a client whose send closure refuses an expired key.
func New() *Client {
	c := &Client{hc: http.DefaultClient}
	c.send = func(ctx context.Context, path string) (*http.Response, error) {
		resp, err := c.hc.Get(path)
		if err != nil {
			return nil, mcperr.ServiceUnavailable("vault unreachable", mcperr.WithData(map[string]any{"reason": "vault_down"}))
		}
		if resp.StatusCode == http.StatusUnauthorized {
			return nil, mcperr.Unauthorized("API key rejected", mcperr.WithData(map[string]any{"reason": "bad_key"}))
		}
		return resp, nil
	}
	return c
}

// data stamps a reason, as the service's helper closure does, named.
func data(reason string) map[string]any {
	return map[string]any{"reason": reason, "service": "vault"}
}

// Read fetches a note: the request closure is called directly.
func (c *Client) Read(ctx context.Context, path string) (string, error) {
	data := func(reason string) map[string]any {
		return map[string]any{"reason": reason, "path": path}
	}
	if strings.Contains(path, "..") {
		return "", mcperr.Forbidden("path refused", mcperr.WithData(data("path_traversal")))
	}
	exec := func(ctx context.Context) (*http.Response, error) {
		resp, err := c.hc.Get(path)
		if err != nil {
			return nil, mcperr.ServiceUnavailable("vault unreachable", mcperr.WithData(data("vault_down")))
		}
		if resp.StatusCode == http.StatusUnauthorized {
			return nil, mcperr.Unauthorized("API key rejected", mcperr.WithData(data("bad_key")))
		}
		return resp, nil
	}
	resp, err := exec(ctx)
	if err != nil {
		return "", err
	}
	switch resp.StatusCode {
	case http.StatusNotFound:
		return "", mcperr.NotFound("no note at "+path, mcperr.WithData(data("note_missing")))
	case http.StatusBadRequest:
		return "", mcperr.ValidationError(path+" is a directory", mcperr.WithData(data("path_is_dir")))
	}
	return "", nil
}

// Append writes to a note: the same closure handed to mcperr.Retry.
func (c *Client) Append(ctx context.Context, path, text string) error {
	exec := func(ctx context.Context) (*http.Response, error) {
		resp, err := c.hc.Get(path)
		if err != nil {
			return nil, mcperr.ServiceUnavailable("vault unreachable", mcperr.WithData(data("vault_down")))
		}
		if resp.StatusCode == http.StatusConflict {
			return nil, mcperr.Conflict("note changed", mcperr.WithData(data("note_changed")))
		}
		return resp, nil
	}
	_, err := mcperr.Retry(ctx, mcperr.RetryOptions{Operation: "append"}, exec)
	return err
}

// Search runs through the field set by New.
func (c *Client) Search(ctx context.Context, query string) (string, error) {
	resp, err := c.send(ctx, "/search?q="+query)
	if err != nil {
		return "", err
	}
	if resp.StatusCode == http.StatusBadRequest {
		return "", mcperr.ValidationError("bad query", mcperr.WithData(data("bad_query")))
	}
	return "", nil
}

// requester returns the request closure, as a helper of the service.
func (c *Client) requester(path string) func(context.Context) (*http.Response, error) {
	return func(ctx context.Context) (*http.Response, error) {
		resp, err := c.hc.Get(path)
		if err != nil {
			return nil, mcperr.ServiceUnavailable("vault unreachable", mcperr.WithData(data("vault_down")))
		}
		if resp.StatusCode == http.StatusForbidden {
			return nil, mcperr.Forbidden("no access", mcperr.WithData(data("path_forbidden")))
		}
		if resp.StatusCode == http.StatusUnauthorized {
			return nil, mcperr.Unauthorized("API key rejected", mcperr.WithData(data("bad_key")))
		}
		return resp, nil
	}
}

// Delete runs the closure a helper returns, through a queue of its own.
func (c *Client) Delete(ctx context.Context, path string) error {
	exec := c.requester(path)
	return c.queue(ctx, exec)
}

// queue runs a request function: a parameter, called directly.
func (c *Client) queue(ctx context.Context, run func(context.Context) (*http.Response, error)) error {
	_, err := run(ctx)
	return err
}

// fail raises a reason passed as an argument: the misspelt "note_mising"
// of List reaches the wire through it.
func fail(reason, msg string) error {
	return mcperr.NotFound(msg, mcperr.WithData(map[string]any{"reason": reason}))
}

// List lists a folder.
func (c *Client) List(ctx context.Context, dir string) ([]string, error) {
	if dir == "" {
		return nil, fail("note_mising", "no folder")
	}
	return nil, nil
}

// Hook runs a hook by name.
func (c *Client) Hook(ctx context.Context, name string) error {
	return c.hooks[name](ctx)
}

// codeThrottled is the service's name for a rate-limited upstream.
const codeThrottled = mcperr.CodeRateLimited

// upstreamErr builds the error of an upstream status, as the service's
// classifier does: its callers give the code and the reason.
func upstreamErr(code mcperr.Code, reason string) error {
	return mcperr.New(code, "vault: "+reason, mcperr.WithData(data(reason)))
}

// Move moves a note.
func (c *Client) Move(ctx context.Context, from, to string) error {
	resp, err := c.hc.Get(from)
	if err != nil {
		return upstreamErr(mcperr.CodeServiceUnavailable, "vault_down")
	}
	switch resp.StatusCode {
	case http.StatusNotFound:
		return upstreamErr(mcperr.CodeNotFound, "note_missing")
	case http.StatusConflict:
		return upstreamErr(mcperr.CodeConflict, "note_changed")
	}
	return nil
}

// Tags lists a note's tags; the upstream throttles this endpoint.
func (c *Client) Tags(ctx context.Context, path string) ([]string, error) {
	resp, err := c.hc.Get(path)
	if err != nil {
		return nil, upstreamErr(mcperr.CodeServiceUnavailable, "vault_down")
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return nil, upstreamErr(codeThrottled, "rate_limited")
	}
	return nil, nil
}

// Upstream is upstreamErr for the tools' own checks.
func Upstream(code mcperr.Code, reason string) error { return upstreamErr(code, reason) }
