package mcpclient_test

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The server the examples call: one tool, order_item, whose contract
// declares two failures, one of them retryable.
var (
	outOfStock = mcpcore.Failure{
		Reason:    "out_of_stock",
		Code:      mcperr.CodeNotFound,
		When:      "The item is out of stock.",
		Recovery:  "Call list_items to find an item that is in stock.",
		Retryable: mcpcore.NotRetryable,
	}
	warehouseBusy = mcpcore.Failure{
		Reason:    "warehouse_busy",
		Code:      mcperr.CodeServiceUnavailable,
		When:      "The warehouse cannot take the order now.",
		Recovery:  "Order again in a few seconds.",
		Retryable: mcpcore.Retryable,
	}
)

type orderInput struct {
	Item string `json:"item" jsonschema:"the item to order"`
}

type orderOutput struct {
	OrderID string `json:"orderId" jsonschema:"the ID of the new order"`
}

// busy makes order_item fail with warehouse_busy that many times more.
var busy atomic.Int32

var orderItem = mcpcore.Tool[orderInput, orderOutput]{
	Name:        "order_item",
	Description: "Order one item.",
	Errors:      []mcpcore.Failure{outOfStock, warehouseBusy},
	Handler: func(ctx *mcpcore.Context, in orderInput) (orderOutput, error) {
		if in.Item == "teapot" {
			return orderOutput{}, ctx.Fail(outOfStock, in.Item+" is out of stock", ctx.RecoveryFor(outOfStock))
		}
		if busy.Add(-1) >= 0 {
			return orderOutput{}, ctx.Fail(warehouseBusy, "", ctx.RecoveryFor(warehouseBusy))
		}
		return orderOutput{OrderID: "o-1"}, nil
	},
}

// connect serves defs with mcpcore and returns a client session connected
// to them over in-memory transports, with opts.
func connect(opts *mcp.ClientOptions, defs ...mcpcore.Definition) (*mcp.ClientSession, error) {
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "shop", Version: "1.0.0"}, &mcpcore.ServerOptions{
		Logger: slog.New(slog.DiscardHandler),
	}, defs...)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	if _, err := srv.MCPServer().Connect(ctx, serverTransport, nil); err != nil {
		return nil, err
	}
	return mcp.NewClient(&mcp.Implementation{Name: "example-client"}, opts).Connect(ctx, clientTransport, nil)
}
