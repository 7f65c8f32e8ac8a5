// Package svcmid is a service that calls svcdeep.
package svcmid

import (
	"context"
	"fmt"
	"net/http"

	"svcdeep"
)

type Client struct{}

func (c *Client) Fetch(ctx context.Context, id string) (string, error) {
	v, err := svcdeep.Get(ctx, id)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", id, err)
	}
	return v, nil
}

func (c *Client) Ping() error { return svcdeep.Down() }

func (c *Client) Status(resp *http.Response) error { return svcdeep.Upstream(resp) }
