package mcpcore

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/httpserve"
)

// keepAnswersAlive tells the HTTP endpoint that a call of a POST has
// reached the server, so that an answer that stays quiet while the call
// runs is sent its status line and keep-alive comments rather than
// nothing until the result (see httpserve.CallArrived). Notifications
// have no answer to keep alive, and requests over stdio no POST.
func keepAnswersAlive(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if extra := req.GetExtra(); extra != nil && extra.Header != nil && !strings.HasPrefix(method, "notifications/") {
			httpserve.CallArrived(extra.Header)
		}
		return next(ctx, method, req)
	}
}
