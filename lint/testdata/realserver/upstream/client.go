// Package upstream is the service layer of the catalog server: a client of
// the catalog's HTTP API (a bibliographic API in the manner of Crossref or
// OpenAlex). It knows HTTP and the catalog, not the tools' contracts: it
// returns *mcperr.Error values, stamped with the reasons the tools declare
// for them (data.reason, mcpcore.RecoveryFor), and the tools map them onto
// their contracts with ctx.FailFrom.
package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// maxBody bounds what is read of a successful answer.
const maxBody = 4 << 20

// Config configures a Client.
type Config struct {
	// BaseURL is the catalog's API root, such as https://api.catalog.example/v1.
	BaseURL string
	// APIKey is the server's key, sent as the api_key query parameter, as
	// the catalog asks.
	APIKey string
	// Concurrency is how many calls may be in flight at once.
	Concurrency int
	// QueueWait is how long a call waits for a free slot.
	QueueWait time.Duration
	// Timeout bounds one operation, retries included.
	Timeout time.Duration
	// HTTP is the client to use; nil means a client of its own.
	HTTP *http.Client
}

// A Client calls the catalog. It is safe for concurrent use.
type Client struct {
	base    *url.URL
	key     string
	http    *http.Client
	q       *queue
	timeout time.Duration
}

// New returns a client for cfg, or a ConfigurationError when cfg cannot
// work.
func New(cfg Config) (*Client, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, mcperr.ConfigurationError("CATALOG_URL must be an absolute URL", mcperr.WithCause(err))
	}
	if cfg.APIKey == "" {
		return nil, mcperr.ConfigurationError("CATALOG_API_KEY is not set")
	}
	c := &Client{base: base, key: cfg.APIKey, http: cfg.HTTP, q: newQueue(cfg.Concurrency, cfg.QueueWait), timeout: cfg.Timeout}
	if c.http == nil {
		c.http = &http.Client{Timeout: 20 * time.Second}
	}
	if c.timeout <= 0 {
		c.timeout = 30 * time.Second
	}
	if cfg.QueueWait <= 0 {
		c.q.wait = 2 * time.Second
	}
	return c, nil
}

// endpoint returns the URL of path under the API root, with the query and
// the API key.
func (c *Client) endpoint(path string, query url.Values) string {
	u := *c.base
	u.Path = u.Path + path
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("api_key", c.key)
	u.RawQuery = q.Encode()
	return u.String()
}

// call runs one GET of the catalog through the queue, retrying what is
// transient, within the client's timeout, and decodes the answer into out.
// op names the operation in the retry records. It returns the catalog's
// failures as *mcperr.Error values, stamped with the reasons the tools
// declare for them.
func (c *Client) call(ctx context.Context, op, path string, query url.Values, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	_, err := mcperr.Retry(ctx, mcperr.RetryOptions{Operation: op, MaxRetries: 2, BaseDelay: 500 * time.Millisecond},
		func(ctx context.Context) (struct{}, error) {
			return struct{}{}, c.q.do(ctx, func() error { return c.once(ctx, path, query, out) })
		})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrQueueFull):
		return mcperr.RateLimited("Too many catalog calls are in flight",
			mcperr.WithCause(err),
			mcperr.WithData(map[string]any{"retryAfter": 5}),
			mcpcore.RecoveryFor(ctx, queueFull))
	case errors.Is(err, context.DeadlineExceeded):
		return mcperr.Timeout(fmt.Sprintf("The catalog did not answer %s within %s", op, c.timeout), mcperr.WithCause(err))
	}
	return err
}

// once makes one request.
func (c *Client) once(ctx context.Context, path string, query url.Values, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint(path, query), nil)
	if err != nil {
		return mcperr.InternalError("Cannot build a catalog request", mcperr.WithCause(err))
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		// A refused connection or a DNS failure: ServiceUnavailable, the
		// catalog being down.
		return mcperr.ServiceUnavailable("The catalog cannot be reached",
			mcperr.WithCause(err),
			mcperr.WithData(map[string]any{"reason": "upstream_unreachable"}),
			mcpcore.RecoveryFor(ctx, unreachable))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%w: %s", ErrNoRecord, path)
	case resp.StatusCode == http.StatusUnauthorized:
		return mcperr.ConfigurationError("The catalog refused this server's API key",
			mcperr.WithCause(mcperr.FromResponse(resp, mcperr.WithService("Catalog"))),
			mcpcore.RecoveryFor(ctx, keyRejected))
	case resp.StatusCode >= 300:
		return mcperr.FromResponse(resp, mcperr.WithService("Catalog"))
	}
	if err = json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(out); err != nil {
		return mcperr.SerializationError("The catalog's answer does not decode", mcperr.WithCause(err))
	}
	return nil
}
