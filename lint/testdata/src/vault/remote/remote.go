// Package remote is a service of the vault, in its own package, that
// reads the upstream through the shared helpers of package upstream and
// builds its errors with mcperr.
package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/seed417024ea/mcpcore/mcperr"

	"vault/upstream"
)

// Client calls the vault's remote API.
type Client struct{ hc *http.Client }

func (c *Client) get(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, upstream.Path(path), nil)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

// Read reads a note: the body a helper reads, formatted into the message.
func (c *Client) Read(ctx context.Context, path string) (string, error) {
	resp, err := c.get(ctx, path)
	if err != nil {
		return "", mcperr.ServiceUnavailable("vault unreachable", mcperr.WithCause(err))
	}
	if resp.StatusCode != http.StatusOK {
		body := upstream.Body(resp)
		return "", mcperr.ServiceUnavailable(fmt.Sprintf("vault answered %d: %s", resp.StatusCode, body)) // want `no-stringify-upstream-error: the message is built from body \(what upstream.Body returns\)`
	}
	return upstream.Body(resp), nil
}

// Append writes to a note: the upstream's own message is the error's
// message, the path by which an upstream that quoted the API key leaked
// it.
func (c *Client) Append(ctx context.Context, path, text string) error {
	resp, err := c.get(ctx, path)
	if err != nil {
		return mcperr.ServiceUnavailable("vault unreachable", mcperr.WithCause(err))
	}
	if resp.StatusCode >= 500 {
		upErr, err := upstream.Decode(resp)
		if err != nil {
			return mcperr.ServiceUnavailable("vault failed", mcperr.WithCause(err))
		}
		return mcperr.ServiceUnavailable(upErr.Message, mcperr.WithData(map[string]any{"status": resp.StatusCode})) // want `no-stringify-upstream-error: the message is built from upErr.Message \(the upstream's own message, decoded from what upstream.Decode returns\)`
	}
	if resp.StatusCode == http.StatusConflict {
		var doc struct{ Error struct{ Message string } }
		b, _ := io.ReadAll(resp.Body)
		if json.Unmarshal(b, &doc) == nil {
			msg := "conflict: " + doc.Error.Message
			return mcperr.Conflict(msg) // want `no-stringify-upstream-error: the message is built from msg \(doc.Error.Message, the upstream's own message, decoded from b\)`
		}
	}
	if resp.StatusCode == http.StatusBadGateway {
		return mcperr.ServiceUnavailable("vault: " + resp.Status) // want `no-stringify-upstream-error: the message is built from resp.Status`
	}
	if resp.StatusCode == http.StatusGatewayTimeout {
		return mcperr.Timeout(upstream.Describe(resp)) // want `no-stringify-upstream-error: the message is built from what upstream.Describe returns`
	}
	return nil
}

// Search reads the raw body through a helper of this package.
func (c *Client) Search(ctx context.Context, query string) (string, error) {
	resp, err := c.get(ctx, "/search?q="+query)
	if err != nil {
		return "", mcperr.ServiceUnavailable("vault unreachable", mcperr.WithCause(err))
	}
	if resp.StatusCode == http.StatusBadRequest {
		reason := explain(resp)
		return "", mcperr.ValidationError("bad query: " + reason) // want `no-stringify-upstream-error: the message is built from reason \(what remote.explain returns`
	}
	if resp.StatusCode != http.StatusOK {
		raw, err := upstream.Raw(resp)
		if err != nil {
			return "", mcperr.ServiceUnavailable("vault failed", mcperr.WithCause(err))
		}
		text := string(raw)
		return "", fmt.Errorf("search failed: %s", text) // plain Go in a service: not judged
	}
	return "", nil
}

// explain is a helper of the service that reads the upstream's status.
func explain(resp *http.Response) string {
	return "status " + upstream.Status(resp)
}

// Delete says what failed in its own words: nothing the upstream said
// reaches the message.
func (c *Client) Delete(ctx context.Context, path string) error {
	resp, err := c.get(ctx, path)
	if err != nil {
		return mcperr.ServiceUnavailable("vault unreachable", mcperr.WithCause(err))
	}
	if resp.StatusCode != http.StatusNoContent {
		where := upstream.Path(path)
		msg := fmt.Sprintf("could not delete %s (status %d)", where, resp.StatusCode)
		if upErr, derr := upstream.Decode(resp); derr == nil {
			return mcperr.ServiceUnavailable(msg, mcperr.WithCause(fmt.Errorf("upstream: %s", upErr.Message)))
		}
		return mcperr.ServiceUnavailable(msg)
	}
	return nil
}
