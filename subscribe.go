package mcpcore

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// subscribe accepts resources/subscribe for the URIs of resources that opt
// in (Resource.Subscribe); the SDK keeps the subscriptions of each session.
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	return s.subscribable(req.Params.URI)
}

// unsubscribe accepts resources/unsubscribe where subscribe would.
func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	return s.subscribable(req.Params.URI)
}

func (s *Server) subscribable(uri string) error {
	for _, matches := range s.subscriptions {
		if matches(uri) {
			return nil
		}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("The resource %q does not accept subscriptions.", uri)}
}

// NotifyResourceUpdated tells the sessions subscribed to uri that the
// resource changed (notifications/resources/updated), so that they read it
// again. The resource must be one whose definition sets Subscribe.
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	if err := s.subscribable(uri); err != nil {
		return err
	}
	return s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
}

// NotifyResourceUpdated is [Server.NotifyResourceUpdated] for a handler: a
// tool that changes a resource tells its subscribers.
func (c *Context) NotifyResourceUpdated(uri string) error {
	if c.srv == nil {
		return fmt.Errorf("mcpcore: NotifyResourceUpdated(%q) outside a served call", uri)
	}
	return c.srv.NotifyResourceUpdated(context.WithoutCancel(c), uri)
}
