package mcpcore

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// keepAnswersAlive tells the HTTP endpoint that a call of a POST has
// reached the server, so that an answer that stays quiet while the call
// runs is sent its status line and keep-alive comments rather than
// nothing until the result (see httpserve.Endpoints.CallArrived). Notifications
// have no answer to keep alive, and requests over stdio no POST.
func (s *Server) keepAnswersAlive(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if extra := req.GetExtra(); extra != nil && extra.Header != nil && !strings.HasPrefix(method, "notifications/") {
			s.endpoints.CallArrived(extra.Header)
		}
		return next(ctx, method, req)
	}
}
