package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// ErrorOf reads a failed tool call back into the error its handler returned.
func ExampleErrorOf() {
	cs, err := connect(nil, orderItem)
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
		fmt.Println(mcpclient.FromRPC(err))
		return
	}
	if e := mcpclient.ErrorOf(res); e != nil {
		fmt.Println(e.Code(), e.Message())
		fmt.Println("reason:", e.Data()["reason"])
		fmt.Println("next:", e.RecoveryHint())
	}
	// Output:
	// NotFound teapot is out of stock
	// reason: out_of_stock
	// next: Call list_items to find an item that is in stock.
}

// Call returns the tool's typed output, or the server's error, which
// errors.As and mcperr.CodeOf read as the server's own code does.
func ExampleCall() {
	cs, err := connect(nil, orderItem)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	ctx := context.Background()

	out, err := mcpclient.Call[orderOutput](ctx, cs, "order_item", orderInput{Item: "kettle"})
	fmt.Println(out.OrderID, err)

	_, err = mcpclient.Call[orderOutput](ctx, cs, "order_item", orderInput{Item: "teapot"})
	var e *mcperr.Error
	if errors.As(err, &e) && e.Data()["reason"] == outOfStock.Reason {
		fmt.Println(mcperr.CodeOf(err), "-", e.RecoveryHint())
	}
	// Output:
	// o-1 <nil>
	// NotFound - Call list_items to find an item that is in stock.
}

// ReadResource and GetPrompt return JSON-RPC errors as *mcperr.Error too.
func ExampleFromRPC() {
	cs, err := connect(nil, orderItem)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	_, err = cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "no_such_prompt"})
	e := mcpclient.FromRPC(err)
	fmt.Println(e.Code(), e.Code().Category())
	// Output:
	// InvalidParams client
}

// Contract reads the failures a tool declares from tools/list, before any
// call fails.
func ExampleContract() {
	cs, err := connect(nil, orderItem)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			fmt.Println(err)
			return
		}
		contract, err := mcpclient.Contract(tool)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, f := range contract {
			fmt.Printf("%s: %s %v (retryable %v)\n", tool.Name, f.Reason, f.Code, f.Retryable == mcpcore.Retryable)
		}
	}
	// Output:
	// order_item: out_of_stock NotFound (retryable false)
	// order_item: warehouse_busy ServiceUnavailable (retryable true)
}

// RetryByContract retries what the tool's contract declares retryable, and nothing
// else.
func ExampleRetryByContract() {
	cs, err := connect(nil, orderItem)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	ctx := context.Background()
	contracts, err := mcpclient.Contracts(ctx, cs)
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := mcperr.RetryOptions{BaseDelay: time.Millisecond, Jitter: mcperr.NoJitter}
	order := func(item string) (orderOutput, int, error) {
		attempts := 0
		out, err := mcpclient.RetryByContract(ctx, opts, contracts["order_item"], func(ctx context.Context) (orderOutput, error) {
			attempts++
			return mcpclient.Call[orderOutput](ctx, cs, "order_item", orderInput{Item: item})
		})
		return out, attempts, err
	}

	busy.Store(2) // warehouse_busy twice, then the order goes through
	out, attempts, err := order("kettle")
	fmt.Println(out.OrderID, attempts, err)

	_, attempts, err = order("teapot") // out_of_stock: declared NotRetryable
	fmt.Println(attempts, err)
	// Output:
	// o-1 3 <nil>
	// 1 teapot is out of stock
}

// Call waits for a task: a server that speaks the tasks extension may answer
// a long tool call with a task in place of its result, which Call polls
// until it ends. The client declares the extension (NewClient), keeps the
// task the SDK would drop (Transport) and, over Streamable HTTP, names the
// task in each poll's Mcp-Name header (HTTPClient).
func ExampleCall_task() {
	// A server on the SDK alone that makes each call of a client that
	// declared the extension a task.
	srv := (&taskServer{}).server()
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	defer hs.Close()

	ctx := context.Background()
	transport := &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: mcpclient.HTTPClient(nil)}
	client := mcpclient.NewClient(&mcp.Implementation{Name: "example-client"}, nil)
	cs, err := client.Connect(ctx, mcpclient.Transport(transport), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()

	out, err := mcpclient.Call[answerOut](ctx, cs, "compute", nil)
	fmt.Println(out.Answer, err)

	// A task that ends in the tool's declared failure is the same error as
	// the call answered at once.
	_, err = mcpclient.Call[answerOut](ctx, cs, "reject", nil)
	var e *mcperr.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code(), e.Data()["reason"], "-", e.RecoveryHint())
	}
	// Output:
	// 42 <nil>
	// NotFound no_match - Try IDs 1-100.
}
