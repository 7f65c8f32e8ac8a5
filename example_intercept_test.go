package mcpcore_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// An interceptor wraps every handler: here it writes an audit line for each
// call, with its decoded input and its outcome, and refuses the calls of a
// blocked customer with the tool's own declared failure.
func ExampleInterceptor() {
	blocked := mcpcore.Failure{Reason: "customer_blocked", Code: mcperr.CodeForbidden,
		When: "The customer is blocked.", Recovery: "Ask the shop's support to unblock the customer."}
	type order struct {
		Customer string `json:"customer"`
		Item     string `json:"item"`
		Count    int    `json:"count,omitempty" default:"1"`
	}
	placeOrder := mcpcore.Tool[order, struct{ ID string }]{
		Name: "place_order", Description: "Place an order.", Errors: []mcpcore.Failure{blocked},
		Handler: func(_ *mcpcore.Context, o order) (struct{ ID string }, error) {
			return struct{ ID string }{fmt.Sprintf("%s-%d-%s", o.Customer, o.Count, o.Item)}, nil
		},
	}
	audit := func(next mcpcore.CallFunc) mcpcore.CallFunc {
		return func(ctx *mcpcore.Context, call *mcpcore.Call) (any, error) {
			if o, ok := call.Input.(order); ok && o.Customer == "mallory" {
				return nil, ctx.Fail(blocked, "Customer mallory is blocked", ctx.RecoveryFor(blocked))
			}
			out, err := next(ctx, call)
			fmt.Printf("audit: %s %s %+v -> %+v, %v\n", call.Kind, call.Name, call.Input, out, err)
			return out, err
		}
	}
	cs, err := exampleServe(&mcpcore.ServerOptions{Interceptors: []mcpcore.Interceptor{audit}}, nil, placeOrder)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	for _, customer := range []string{"ada", "mallory"} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "place_order",
			Arguments: map[string]any{"customer": customer, "item": "teapot"}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// audit: tool place_order {Customer:ada Item:teapot Count:1} -> {ID:ada-1-teapot}, <nil>
	// {
	//   "ID": "ada-1-teapot"
	// }
	// Error: Customer mallory is blocked
	//
	// Recovery: Ask the shop's support to unblock the customer.
}
