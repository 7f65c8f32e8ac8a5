// Package svcdeep is the bottom of a service: it raises what the handler
// two calls up must declare.
package svcdeep

import (
	"context"
	"net/http"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// throttled is the entry whose declared hint Get sends.
var throttled = mcpcore.Failure{Reason: "throttled", Code: mcperr.CodeRateLimited, When: "Throttled.", Recovery: "Wait a minute, then call again."}

func Get(ctx context.Context, id string) (string, error) {
	if id == "" {
		return "", mcperr.RateLimited("slow down", mcpcore.RecoveryFor(ctx, throttled))
	}
	if id == "gone" {
		return "", mcperr.Conflict("it moved")
	}
	return id, nil
}

func Down() error { return mcperr.ServiceUnavailable("the upstream is down") }

func Upstream(resp *http.Response) error { return mcperr.FromResponse(resp) }
