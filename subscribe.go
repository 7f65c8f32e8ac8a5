package mcpcore

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
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

// subscribable reports whether uri is one a subscription may name: none
// over MaxURIBytes or with a control character, which no resource could
// have, whatever asks (a client, the bus, a handler), then a URI of a
// resource that accepts subscriptions.
func (s *Server) subscribable(uri string) error {
	if err := invalidURI(uri); err != nil {
		return err
	}
	for _, matches := range s.subscriptions {
		if matches(uri) {
			return nil
		}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("The resource %q does not accept subscriptions.", uri)}
}

// refuseSessionSubscriptions answers resources/subscribe and unsubscribe
// on a stateless server: there, each request stands alone and no session
// outlives it to be notified. A client opens a subscriptions/listen
// stream (protocol 2026-07-28) instead, which the SDK serves with the
// subscribe handler above, and which lasts as long as its request.
func refuseSessionSubscriptions(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "resources/subscribe" || method == "resources/unsubscribe" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
				Message: "This server is stateless: no session lives on to be notified, so " + method + " is not served. Open a subscriptions/listen stream (MCP 2026-07-28) to hear of changes."}
		}
		return next(ctx, method, req)
	}
}

// NotifyResourceUpdated tells the sessions subscribed to uri that the
// resource changed (notifications/resources/updated), so that they read it
// again: those of resources/subscribe, and the subscriptions/listen
// streams of 2026-07-28 clients, in stateless mode too. With a bus
// ([ServerOptions.Bus], or MCP_REDIS_URL), the subscribers of the other
// replicas of the fleet hear of it as well, each once. The resource must
// be one whose definition sets Subscribe, and uri one a client could
// subscribe to: at most [MaxURIBytes], without a control character (the
// other replicas drop any other).
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	if err := s.subscribable(uri); err != nil {
		return err
	}
	err := s.notifyLocal(ctx, uri)
	s.publish(fleet.Event{Method: fleet.ResourceUpdated, URI: uri})
	return err
}

// notifyLocal tells this replica's subscribers of uri that it changed.
func (s *Server) notifyLocal(ctx context.Context, uri string) error {
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
