package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// ncbiFetch stands for the service layer of a real server: a client of
// NCBI's E-utilities. It knows HTTP, and the entries its failures are: it
// turns an upstream's answer into an *mcperr.Error with mcperr.FromResponse,
// opting into the declared hint of the entry the status stands for with
// mcpcore.RecoveryFor, and the handler maps that onto its contract with
// ctx.FailFrom, which keeps the hint. The magic first
// PMIDs "upstream_busy" and "upstream_down" make the upstream answer 429
// (with Retry-After) and 503.
//
// Its span, started from the call's context with the global tracer, nests
// under the tools/call span: mcpcore installs the providers it builds from
// OTEL_* as the OpenTelemetry globals.
func ncbiFetch(ctx context.Context, pmids []string) ([]string, error) {
	_, span := otel.Tracer("articles/ncbi").Start(ctx, "ncbi efetch")
	defer span.End()
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}
	switch pmids[0] {
	case "upstream_busy":
		resp.StatusCode, resp.Status = http.StatusTooManyRequests, "429 Too Many Requests"
		resp.Header.Set("Retry-After", "30")
		resp.Body = io.NopCloser(strings.NewReader(`{"error":"API rate limit exceeded","api_key":"c0ffee-secret"}`))
	case "upstream_down":
		resp.StatusCode, resp.Status = http.StatusServiceUnavailable, "503 Service Unavailable"
	}
	// The key travels in the query, as NCBI asks; FromResponse redacts it.
	resp.Request = &http.Request{Method: http.MethodGet, URL: &url.URL{Scheme: "https", Host: "eutils.ncbi.nlm.nih.gov",
		Path: "/entrez/eutils/efetch.fcgi", RawQuery: "db=pubmed&id=" + url.QueryEscape(strings.Join(pmids, ",")) + "&api_key=c0ffee-secret"}}
	if resp.StatusCode != http.StatusOK {
		span.SetStatus(codes.Error, resp.Status)
		entry := ncbiDown
		if resp.StatusCode == http.StatusTooManyRequests {
			entry = queueFull
		}
		return nil, mcperr.FromResponse(resp, mcperr.WithService("NCBI"), mcpcore.RecoveryFor(ctx, entry))
	}
	return pmids, nil
}
