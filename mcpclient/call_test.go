package mcpclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// session connects a client with opts to an mcpcore server serving defs.
func session(t *testing.T, opts *mcp.ClientOptions, defs ...mcpcore.Definition) *mcp.ClientSession {
	t.Helper()
	cs, err := connect(opts, defs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// asError checks that err is an *mcperr.Error and returns it.
func asError(t *testing.T, err error) *mcperr.Error {
	t.Helper()
	var e *mcperr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want an *mcperr.Error", err, err)
	}
	return e
}

type item struct {
	ID string `json:"id"`
}

var itemResource = mcpcore.Resource[item, item]{
	Name:        "item",
	Description: "One item.",
	URITemplate: "shop://items/{id}",
	MIMEType:    "application/json",
	Handler: func(_ *mcpcore.Context, p item) (item, error) {
		if p.ID == "missing" {
			return item{}, mcperr.NotFound("Item missing not found", mcperr.WithData(map[string]any{"itemId": p.ID, "shelf": 7}))
		}
		return p, nil
	},
}

var itemPrompt = mcpcore.Prompt[item]{
	Name:        "describe_item",
	Description: "Describe one item.",
	Handler: func(_ *mcpcore.Context, p item) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{mcpcore.UserMessage(mcpcore.Text("Describe item " + p.ID))}, nil
	},
}

func TestCall(t *testing.T) {
	cs := session(t, nil, orderItem)
	ctx := context.Background()

	out, err := mcpclient.Call[orderOutput](ctx, cs, "order_item", map[string]any{"item": "kettle"})
	if err != nil || out.OrderID != "o-1" {
		t.Errorf("Call(kettle) = %+v, %v; want o-1, nil", out, err)
	}

	_, err = mcpclient.Call[orderOutput](ctx, cs, "order_item", map[string]any{"item": "teapot"})
	check(t, asError(t, err), &want{mcperr.CodeNotFound, "teapot is out of stock",
		`{"retryable":false,"reason":"out_of_stock","recovery":{"hint":"Call list_items to find an item that is in stock."}}`})
	if mcperr.CodeOf(err) != mcperr.CodeNotFound {
		t.Errorf("CodeOf = %v, want NotFound", mcperr.CodeOf(err))
	}

	// Invalid input is the server's ValidationError, with its issues.
	_, err = mcpclient.Call[orderOutput](ctx, cs, "order_item", map[string]any{"item": 7})
	e := asError(t, err)
	if e.Code() != mcperr.CodeValidationError || e.Data()["issues"] == nil {
		t.Errorf("Call(item: 7) = %v %q %v, want a ValidationError with issues", e.Code(), e.Message(), e.Data())
	}

	// A tool the server does not have: its JSON-RPC error.
	_, err = mcpclient.Call[orderOutput](ctx, cs, "no_such_tool", nil)
	e = asError(t, err)
	var w *jsonrpc.Error
	if e.Code() != mcperr.CodeInvalidParams || !errors.As(err, &w) {
		t.Errorf("Call(no_such_tool) = %v %q, want InvalidParams with the *jsonrpc.Error in its chain", e.Code(), e.Message())
	}
}

func TestCallDecodeFailure(t *testing.T) {
	cs := session(t, nil, orderItem)
	_, err := mcpclient.Call[struct {
		OrderID int `json:"orderId"`
	}](context.Background(), cs, "order_item", map[string]any{"item": "kettle"})
	e := asError(t, err)
	if e.Code() != mcperr.CodeSerializationError || e.Cause() == nil {
		t.Errorf("error = %v %q (cause %v), want a SerializationError with its cause", e.Code(), e.Message(), e.Cause())
	}
}

// TestCallWithoutStructuredContent: a tool of another server that answers
// with text only has nothing for Call to decode, and its failure is read
// from the text.
func TestCallWithoutStructuredContent(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "plain"}, nil)
	srv.AddTool(&mcp.Tool{Name: "say", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if string(req.Params.Arguments) == `{"fail":true}` {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the printer is on fire"}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello"}}}, nil
		})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	_, err = mcpclient.Call[map[string]any](ctx, cs, "say", nil)
	if e := asError(t, err); e.Code() != mcperr.CodeSerializationError {
		t.Errorf("Call(say) = %v %q, want a SerializationError", e.Code(), e.Message())
	}
	_, err = mcpclient.Call[map[string]any](ctx, cs, "say", map[string]any{"fail": true})
	check(t, asError(t, err), &want{mcperr.CodeUnknownError, "the printer is on fire", ""})
}

// TestCallNeedsInput: with the SDK's multi-round-trip handling off, a tool
// that asks the user is an InvalidRequest: Call cannot answer.
func TestCallNeedsInput(t *testing.T) {
	type confirm struct {
		OK bool `json:"ok" jsonschema:"Go ahead?"`
	}
	ask := mcpcore.Tool[orderInput, orderOutput]{
		Name:        "ask",
		Description: "Asks the user first.",
		Handler: func(ctx *mcpcore.Context, in orderInput) (orderOutput, error) {
			if _, err := mcpcore.Elicit[confirm](ctx, "Order "+in.Item+"?"); err != nil {
				return orderOutput{}, err
			}
			return orderOutput{OrderID: "o-2"}, nil
		},
	}
	cs := session(t, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	}, ask)
	_, err := mcpclient.Call[orderOutput](context.Background(), cs, "ask", orderInput{Item: "kettle"})
	if e := asError(t, err); e.Code() != mcperr.CodeInvalidRequest || !strings.Contains(e.Message(), "asks the client for input") {
		t.Errorf("Call(ask) = %v %q, want InvalidRequest: Call cannot answer", e.Code(), e.Message())
	}
}

func TestCallCancelled(t *testing.T) {
	slow := mcpcore.Tool[orderInput, orderOutput]{
		Name:        "slow",
		Description: "Waits until cancelled.",
		Handler: func(ctx *mcpcore.Context, _ orderInput) (orderOutput, error) {
			<-ctx.Done()
			return orderOutput{}, ctx.Err()
		},
	}
	cs := session(t, nil, slow)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := mcpclient.Call[orderOutput](ctx, cs, "slow", orderInput{})
	e := asError(t, err)
	if e.Code() != mcperr.CodeTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v %q, want Timeout wrapping context.DeadlineExceeded", e.Code(), e.Message())
	}
}

func TestCallClosedSession(t *testing.T) {
	cs := session(t, nil, orderItem)
	cs.Close()
	_, err := mcpclient.Call[orderOutput](context.Background(), cs, "order_item", orderInput{Item: "kettle"})
	e := asError(t, err)
	if e.Code() != mcperr.CodeServiceUnavailable || !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Errorf("error = %v %q, want ServiceUnavailable wrapping mcp.ErrConnectionClosed", e.Code(), e.Message())
	}
}

func TestReadResource(t *testing.T) {
	cs := session(t, nil, itemResource)
	ctx := context.Background()
	res, err := mcpclient.ReadResource(ctx, cs, "shop://items/42")
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("ReadResource(42) = %v, %v", res, err)
	}
	_, err = mcpclient.ReadResource(ctx, cs, "shop://items/missing")
	check(t, asError(t, err), &want{mcperr.CodeNotFound, "Item missing not found", `{"itemId":"missing","shelf":7}`})
}

func TestGetPrompt(t *testing.T) {
	cs := session(t, nil, itemPrompt)
	ctx := context.Background()
	res, err := mcpclient.GetPrompt(ctx, cs, "describe_item", map[string]string{"id": "42"})
	if err != nil || len(res.Messages) != 1 {
		t.Fatalf("GetPrompt(42) = %v, %v", res, err)
	}
	_, err = mcpclient.GetPrompt(ctx, cs, "describe_item", nil)
	if e := asError(t, err); e.Code() != mcperr.CodeValidationError || e.Data()["issues"] == nil {
		t.Errorf("GetPrompt without id = %v %q %v, want a ValidationError with issues", e.Code(), e.Message(), e.Data())
	}
}
