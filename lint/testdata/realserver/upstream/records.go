package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Record is one work of the catalog.
type Record struct {
	ID       string   `json:"id"`
	DOI      string   `json:"doi,omitempty"`
	Title    string   `json:"title"`
	Authors  []string `json:"authors,omitempty"`
	Year     int      `json:"year,omitempty"`
	Venue    string   `json:"venue,omitempty"`
	Abstract string   `json:"abstract,omitempty"`
}

// A Page is one page of search results.
type Page struct {
	Total   int      `json:"total"`
	Records []Record `json:"records"`
	Next    string   `json:"next,omitempty"`
}

// Search searches the catalog. cursor is the Next of the page before, or
// empty for the first page.
func (c *Client) Search(ctx context.Context, query string, limit int, cursor string) (Page, error) {
	q := url.Values{"q": {query}, "limit": {strconv.Itoa(limit)}}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var p Page
	if err := c.call(ctx, "catalog.Search", "/works", q, &p); err != nil {
		return Page{}, fmt.Errorf("search %q: %w", query, err)
	}
	return p, nil
}

// Get returns the record with the catalog ID id.
func (c *Client) Get(ctx context.Context, id string) (Record, error) {
	var r Record
	err := c.call(ctx, "catalog.Get", "/works/"+url.PathEscape(id), nil, &r)
	if errors.Is(err, ErrNoRecord) {
		return Record{}, mcperr.NotFound("The catalog has no record "+id,
			mcperr.WithCause(err),
			mcpcore.RecoveryFor(ctx, noRecord))
	}
	if err != nil {
		return Record{}, fmt.Errorf("get record %s: %w", id, err)
	}
	return r, nil
}

// GetByDOI returns the record of a DOI, such as 10.1000/xyz123.
func (c *Client) GetByDOI(ctx context.Context, doi string) (Record, error) {
	doi = strings.TrimPrefix(strings.TrimSpace(doi), "https://doi.org/")
	var r Record
	err := c.call(ctx, "catalog.GetByDOI", "/works/doi:"+url.PathEscape(doi), nil, &r)
	if errors.Is(err, ErrNoRecord) {
		err = mcperr.NotFound("No record of the catalog has the DOI "+doi,
			mcperr.WithCause(err),
			mcperr.WithData(map[string]any{"reason": "no_record", "doi": doi}),
			mcpcore.RecoveryFor(ctx, noRecord))
	}
	return r, err
}

// Citation returns the record formatted in a citation style, such as apa.
func (c *Client) Citation(ctx context.Context, id, style string) (string, error) {
	var body struct {
		Text string `json:"text"`
	}
	err := c.call(ctx, "catalog.Citation", "/works/"+url.PathEscape(id)+"/citation", url.Values{"style": {style}}, &body)
	if err == nil && strings.TrimSpace(body.Text) == "" {
		err = ErrEmptyCitation
	}
	switch {
	case errors.Is(err, ErrNoRecord):
		return "", mcperr.NotFound("The catalog has no record "+id, mcperr.WithCause(err), mcpcore.RecoveryFor(ctx, noRecord))
	case errors.Is(err, ErrEmptyCitation):
		return "", mcperr.ServiceUnavailable(fmt.Sprintf("The catalog formatted record %s in style %s as an empty text", id, style),
			mcperr.WithCause(err), mcpcore.RecoveryFor(ctx, unreachable))
	case err != nil:
		return "", fmt.Errorf("cite record %s: %w", id, err)
	}
	return body.Text, nil
}
