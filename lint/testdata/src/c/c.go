// Package c is the lowest layer: an HTTP helper that raises codes itself.
package c

import (
	"context"
	"net/http"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Throttled is a contract entry declared beside the service that raises it;
// handlers of other packages list it and fail with it.
var Throttled = mcpcore.Failure{ // want Throttled:"^failure throttled:RateLimited thrownBy service$"
	Reason:   "throttled",
	Code:     mcperr.CodeRateLimited,
	When:     "The upstream throttles us",
	Recovery: "Wait a minute before calling this tool again.",
	ThrownBy: mcpcore.ThrownByService,
}

// rateLimited is the entry whose declared hint Get sends with its own 429.
var rateLimited = mcpcore.Failure{Reason: "rate_limited", Code: mcperr.CodeRateLimited, When: "Throttled.", Recovery: "Wait a minute, then call again."} // want rateLimited:"^failure rate_limited:RateLimited$"

// Get raises ServiceUnavailable and RateLimited itself, and lets
// FromResponse pick the code of any other failed status.
func Get(ctx context.Context, url string) (*http.Response, error) { // want Get:"^codes RateLimited, ServiceUnavailable; reasons rate_limited:RateLimited; fromResponse direct$"
	resp, err := http.Get(url)
	if err != nil {
		return nil, mcperr.ServiceUnavailable("upstream down", mcperr.WithCause(err))
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return nil, mcperr.RateLimited("slow down", mcpcore.RecoveryFor(ctx, rateLimited))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, mcperr.FromResponse(resp, mcperr.WithService("ncbi"))
	}
	return resp, nil
}

// Noisy builds an error it only logs: nothing reaches its callers.
func Noisy() error {
	e := mcperr.Conflict("logged, not returned")
	println(e.Error())
	return nil
}
