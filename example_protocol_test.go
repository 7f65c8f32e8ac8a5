//lint:file-ignore SA1019 sampling and roots are deprecated from protocol 2026-07-28 (SEP-2577) but stay in the protocol through its deprecation window, and clients use them.

package mcpcore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Deletion is the form the delete_order tool asks the user to fill in.
type Deletion struct {
	Confirm bool   `json:"confirm" jsonschema:"Delete the order for good?"`
	Why     string `json:"why,omitempty" enum:"mistake,changed_mind,other" default:"other"`
}

// Declining is an ordinary answer: declare it, at notice.
var consentDeclined = mcpcore.Failure{
	Reason:   mcpcore.ReasonConsentDeclined,
	Code:     mcperr.CodeInvalidRequest,
	When:     "The user declined to confirm the deletion.",
	Severity: mcpcore.SeverityNotice,
	Recovery: "Keep the order, or ask the user again before calling delete_order.",
}

var deleteOrder = mcpcore.Tool[orderInput, orderOutput]{
	Name:        "delete_order",
	Description: "Delete an order, after the user confirms.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, in orderInput) (orderOutput, error) {
		d, err := mcpcore.Elicit[Deletion](ctx, "Delete the order of "+in.Item+"?",
			mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		if err != nil {
			return orderOutput{}, err // declined: the declared consent_declined, with its Recovery
		}
		if !d.Confirm {
			return orderOutput{}, ctx.Fail(consentDeclined, "The user did not confirm.", ctx.RecoveryFor(consentDeclined))
		}
		return orderOutput{OrderID: "deleted (" + d.Why + ")"}, nil
	},
}

// Elicit asks the user a question through the client, as a form derived
// from a struct; here the client answers for the user.
func ExampleElicit() {
	user := func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		fmt.Println("asked:", req.Params.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
	}
	cs, err := exampleClientWith(&mcp.ClientOptions{ElicitationHandler: user}, deleteOrder)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "delete_order", Arguments: map[string]any{"item": "teapot"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// asked: Delete the order of teapot?
	// {
	//   "orderId": "deleted (other)"
	// }
}

type topic struct {
	Topic string `json:"topic"`
}

type haiku struct {
	Haiku string `json:"haiku"`
}

var writeHaiku = mcpcore.Tool[topic, haiku]{
	Name:        "write_haiku",
	Description: "Write a haiku with the client's model, reporting progress.",
	Handler: func(ctx *mcpcore.Context, in topic) (haiku, error) {
		ctx.Progress(0, 2, "asking the model")
		s, err := ctx.Sample(mcpcore.SamplingRequest{Prompt: "A haiku about " + in.Topic, MaxTokens: 60})
		if err != nil {
			return haiku{}, err // no sampling capability: -32021; the client failing: ServiceUnavailable
		}
		ctx.Progress(2, 2, "done")
		return haiku{Haiku: s.Text}, nil
	},
}

// Sample asks the client's model for a completion; Progress reports how far
// the call has come, to a client that sent a progress token.
func ExampleContext_Sample() {
	progress := make(chan string, 10)
	cs, err := exampleClientWith(&mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "gopher digs / ..."}, Model: "m", Role: "assistant"}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			progress <- fmt.Sprintf("%v/%v %s", r.Params.Progress, r.Params.Total, r.Params.Message)
		},
	}, writeHaiku)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "write_haiku", Arguments: map[string]any{"topic": "Go"}}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		select {
		case p := <-progress:
			fmt.Println("progress:", p)
		case <-time.After(5 * time.Second):
			fmt.Println("no progress")
		}
	}
	fmt.Println(res.StructuredContent)
	// Output:
	// progress: 0/2 asking the model
	// progress: 2/2 done
	// map[haiku:gopher digs / ...]
}
