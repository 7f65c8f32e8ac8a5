package httpserve

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTheSDKsAnswersAreKeptAliveAsTheyGo: behind the SDK's handler, a
// slow call's answer gets comments before its result when the SDK answers
// with an event stream, and none when it answers application/json
// (StreamableHTTPOptions.JSONResponse), whose one body comes whole.
func TestTheSDKsAnswersAreKeptAliveAsTheyGo(t *testing.T) {
	t.Parallel()
	for name, jsonResponse := range map[string]bool{"event stream": false, "JSONResponse": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			var endpoints Endpoints
			server := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					if e := req.GetExtra(); e != nil {
						endpoints.Bind(context.Background(), e.Header)
					}
					return next(ctx, method, req)
				}
			})
			mcp.AddTool(server, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
			})
			sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
				&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: jsonResponse})
			srv := httptest.NewServer(answerThrough(WriteTimeout, 20*time.Millisecond)(endpoints.add().tie(sdk)))
			defer srv.Close()
			if jsonResponse {
				time.AfterFunc(300*time.Millisecond, func() { close(release) })
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("no status line: %v", err)
			}
			defer res.Body.Close()
			lines := bufio.NewScanner(res.Body)
			if jsonResponse {
				var body []string
				for lines.Scan() {
					body = append(body, lines.Text())
				}
				if res.Header.Get("Content-Type") != "application/json" || len(body) != 1 || !strings.Contains(body[0], `"done"`) {
					t.Errorf("%v %q; want the JSON answer alone", res.Header, body)
				}
				return
			}
			if res.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("Content-Type %q", res.Header.Get("Content-Type"))
			}
			for comments := 0; comments < 2; {
				if !lines.Scan() {
					t.Fatalf("the answer ended early: %v", lines.Err())
				}
				if line := lines.Text(); line == ": keep-alive" {
					comments++
				} else if line != "" {
					t.Fatalf("%q before the release", line)
				}
			}
			close(release)
			for lines.Scan() {
				if strings.HasPrefix(lines.Text(), "data: ") {
					if !strings.Contains(lines.Text(), `"done"`) {
						t.Errorf("the event after the comments: %q", lines.Text())
					}
					return
				}
			}
			t.Errorf("no result after the comments: %v", lines.Err())
		})
	}
}

// TestALateErrorOfItsOwnStatusComesAsAnEvent: from protocol 2026-07-28 the
// SDK answers some JSON-RPC errors (InvalidParams here) with an HTTP
// status and a bare JSON body of their own; when a slow call's stream was
// already kept alive, its status line is out, and the error comes down the
// stream as an event, which the client reads as the answer.
func TestALateErrorOfItsOwnStatusComesAsAnEvent(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var endpoints Endpoints
	server := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if e := req.GetExtra(); e != nil {
				endpoints.Bind(context.Background(), e.Header)
			}
			return next(ctx, method, req)
		}
	})
	server.AddResource(&mcp.Resource{URI: "test://slow", Name: "slow"}, func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		<-release
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}
	})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(answerThrough(WriteTimeout, 20*time.Millisecond)(endpoints.add().tie(sdk)))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://slow","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "resources/read")
	req.Header.Set("Mcp-Name", "test://slow")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("no status line: %v", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("HTTP %d %v", res.StatusCode, res.Header)
	}
	lines := bufio.NewScanner(res.Body)
	for comments := 0; comments < 2; {
		if !lines.Scan() {
			t.Fatalf("the answer ended early: %v", lines.Err())
		}
		if line := lines.Text(); line == ": keep-alive" {
			comments++
		} else if line != "" {
			t.Fatalf("%q before the release", line)
		}
	}
	close(release)
	var rest []string
	for lines.Scan() {
		if l := lines.Text(); l != ": keep-alive" && l != "" {
			rest = append(rest, l)
		}
	}
	if len(rest) != 2 || rest[0] != "event: message" || !strings.HasPrefix(rest[1], `data: {"jsonrpc":"2.0","id":1,"error":{"code":-32602`) {
		t.Errorf("after the comments: %q; want the error as an event", rest)
	}
}
