package mcpcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A declared failure of the order_item tool, beside the tool that lists it.
var outOfStock = mcpcore.Failure{
	Reason:   "out_of_stock",
	Code:     mcperr.CodeNotFound,
	When:     "The item is out of stock.",
	Recovery: "Call list_items to find an item that is in stock.",
}

type orderInput struct {
	Item string `json:"item" jsonschema:"the item to order"`
}

type orderOutput struct {
	OrderID string `json:"orderId" jsonschema:"the ID of the new order"`
}

var orderItem = mcpcore.Tool[orderInput, orderOutput]{
	Name:        "order_item",
	Description: "Order one item.",
	Errors:      []mcpcore.Failure{outOfStock},
	Handler: func(ctx *mcpcore.Context, in orderInput) (orderOutput, error) {
		if in.Item == "teapot" {
			return orderOutput{}, ctx.Fail(outOfStock, in.Item+" is out of stock", ctx.RecoveryFor(outOfStock))
		}
		return orderOutput{OrderID: "o-1"}, nil
	},
}

// exampleClient serves defs and returns a client connected over in-memory
// transports.
func exampleClient(defs ...mcpcore.Definition) (*mcp.ClientSession, error) {
	return exampleClientWith(nil, defs...)
}

// exampleClientWith is exampleClient for a client with opts: the handlers
// with which it answers the server's questions.
func exampleClientWith(opts *mcp.ClientOptions, defs ...mcpcore.Definition) (*mcp.ClientSession, error) {
	return exampleServe(&mcpcore.ServerOptions{}, opts, defs...)
}

// exampleServe connects a client with copts to a server with opts (its
// log discarded, the environment unread) serving defs.
func exampleServe(opts *mcpcore.ServerOptions, copts *mcp.ClientOptions, defs ...mcpcore.Definition) (*mcp.ClientSession, error) {
	opts.Logger = slog.New(slog.DiscardHandler)
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "shop", Version: "1.0.0"}, opts, defs...)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	if _, err := srv.MCPServer().Connect(ctx, serverTransport, nil); err != nil {
		return nil, err
	}
	return mcp.NewClient(&mcp.Implementation{Name: "example-client"}, copts).Connect(ctx, clientTransport, nil)
}

// A tool declares how it fails; a failing call reaches the client as an
// error result whose text and structured error agree.
func ExampleTool() {
	cs, err := exampleClient(orderItem)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name:      "order_item",
		Arguments: map[string]any{"item": "teapot"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("isError:", res.IsError)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	structured, _ := json.Marshal(res.StructuredContent)
	fmt.Println(string(structured))
	// Output:
	// isError: true
	// Error: teapot is out of stock
	//
	// Recovery: Call list_items to find an item that is in stock.
	// {"error":{"code":-32001,"data":{"reason":"out_of_stock","recovery":{"hint":"Call list_items to find an item that is in stock."}},"message":"teapot is out of stock"}}
}

// RecoveryFor opts a failure into sending the contract's Recovery as
// data.recovery.hint; without it, the hint stays in the contract.
func ExampleContext_RecoveryFor() {
	type noInput struct{}
	type noOutput struct{}
	reserve := mcpcore.Tool[noInput, noOutput]{
		Name:   "reserve",
		Errors: []mcpcore.Failure{outOfStock},
		Handler: func(ctx *mcpcore.Context, _ noInput) (noOutput, error) {
			without := ctx.Fail(outOfStock, "")
			with := ctx.Fail(outOfStock, "", ctx.RecoveryFor(outOfStock))
			for _, e := range []*mcperr.Error{without, with} {
				b, _ := json.Marshal(e)
				fmt.Println(string(b))
			}
			return noOutput{}, with
		},
	}
	cs, err := exampleClient(reserve)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "reserve"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// {"code":-32001,"message":"The item is out of stock.","data":{"reason":"out_of_stock"}}
	// {"code":-32001,"message":"The item is out of stock.","data":{"reason":"out_of_stock","recovery":{"hint":"Call list_items to find an item that is in stock."}}}
	// Error: The item is out of stock.
	//
	// Recovery: Call list_items to find an item that is in stock.
}

// NewServer refuses a contract with structural errors, naming the tool and
// the entry of each.
func ExampleNewServer_invalidContract() {
	broken := mcpcore.Tool[orderInput, orderOutput]{
		Name: "order_item",
		Errors: []mcpcore.Failure{
			{Reason: "out_of_stock", Code: mcperr.CodeNotFound, When: "The item is out of stock."},
			{Reason: "out_of_stock", Code: 12345, When: "The item is out of stock.", Recovery: "Call list_items first."},
		},
		Handler: orderItem.Handler,
	}
	_, err := mcpcore.NewServer(mcpcore.Info{Name: "shop"}, &mcpcore.ServerOptions{
		Logger: slog.New(slog.DiscardHandler),
	}, broken)
	fmt.Println(mcperr.CodeOf(err))
	fmt.Println(err)
	// Output:
	// InitializationFailed
	// mcpcore: invalid server definition: tool "order_item": error contract entry 0 (reason "out_of_stock"): empty Recovery
	// tool "order_item": error contract entry 1 (reason "out_of_stock"): unknown code 12345
	// tool "order_item": error contract entry 1 (reason "out_of_stock"): duplicate reason
}
