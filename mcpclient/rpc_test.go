package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// calling wraps err as the SDK's sessions do.
func calling(err error) error { return fmt.Errorf("calling %q: %w", "tools/call", err) }

// rejected is the SDK's own "rejected by transport" marker.
var rejected = &jsonrpc.Error{Code: -32005, Message: "rejected by transport"}

func TestFromRPC(t *testing.T) {
	itemMissing := &jsonrpc.Error{Code: -32001, Message: "Item missing not found", Data: json.RawMessage(`{"itemId":"missing"}`)}
	for _, tc := range []struct {
		name string
		err  error
		want *want
	}{
		{name: "nil"},
		{
			name: "a resource failure keeps code, message and data",
			err:  calling(itemMissing),
			want: &want{mcperr.CodeNotFound, "Item missing not found", `{"itemId":"missing"}`},
		},
		{
			name: "a protocol error",
			err: calling(&jsonrpc.Error{Code: -32021, Message: "This request needs the client capabilities sampling, which the client did not declare.",
				Data: json.RawMessage(`{"requiredCapabilities":{"sampling":{}}}`)}),
			want: &want{mcperr.CodeMissingClientCapability, "This request needs the client capabilities sampling, which the client did not declare.",
				`{"requiredCapabilities":{"sampling":{}}}`},
		},
		{
			name: "an unknown tool",
			err:  calling(&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: `unknown tool "nope"`}),
			want: &want{mcperr.CodeInvalidParams, `unknown tool "nope"`, ""},
		},
		{
			name: "numbers in data are float64",
			err:  &jsonrpc.Error{Code: -32003, Message: "slow down", Data: json.RawMessage(`{"retryAfter":2,"retryable":true}`)},
			want: &want{mcperr.CodeRateLimited, "slow down", `{"retryAfter":2,"retryable":true}`},
		},
		{
			name: "data that is not an object is dropped",
			err:  &jsonrpc.Error{Code: -32603, Message: "m", Data: json.RawMessage(`"details"`)},
			want: &want{mcperr.CodeInternalError, "m", ""},
		},
		{
			name: "null data is no data",
			err:  &jsonrpc.Error{Code: -32603, Message: "m", Data: json.RawMessage(`null`)},
			want: &want{mcperr.CodeInternalError, "m", ""},
		},
		{
			name: "a code beyond int32",
			err:  &jsonrpc.Error{Code: 1 << 40, Message: "huge"},
			want: &want{mcperr.CodeUnknownError, "huge", ""},
		},
		{
			name: "a Forbidden from the server is Forbidden",
			err:  calling(&jsonrpc.Error{Code: -32005, Message: "Not your article"}),
			want: &want{mcperr.CodeForbidden, "Not your article", ""},
		},
		{
			name: "an HTTP error answer: the server's error, not the SDK's marker",
			err: calling(fmt.Errorf("%s: %w: %w: %v", "POST tools/call", &jsonrpc.Error{Code: -32021, Message: "needs sampling"},
				rejected, "Bad Request")),
			want: &want{mcperr.CodeMissingClientCapability, "needs sampling", ""},
		},
		{
			name: "a refused connection behind the SDK's marker is not Forbidden",
			err:  calling(fmt.Errorf("%s: %w: %w", "POST tools/call", rejected, syscall.ECONNREFUSED)),
			want: &want{mcperr.CodeServiceUnavailable, `calling "tools/call": POST tools/call: rejected by transport: connection refused`, ""},
		},
		{
			name: "an HTTP 429 without a body behind the SDK's marker",
			err:  calling(fmt.Errorf("%w: %s: %v", rejected, "POST tools/call", "Too Many Requests")),
			want: &want{mcperr.CodeRateLimited, `calling "tools/call": rejected by transport: POST tools/call: Too Many Requests`, ""},
		},
		{
			name: "a closed connection",
			err:  fmt.Errorf("%w: calling %q: %v", mcp.ErrConnectionClosed, "tools/call", "client is closing"),
			want: &want{mcperr.CodeServiceUnavailable, `connection closed: calling "tools/call": client is closing`, ""},
		},
		{
			name: "a session the server forgot",
			err:  calling(fmt.Errorf("POST: failed to connect (session ID: s1): %w", mcp.ErrSessionMissing)),
			want: &want{mcperr.CodeServiceUnavailable, `calling "tools/call": POST: failed to connect (session ID: s1): session not found`, ""},
		},
		{
			name: "a cancelled context",
			err:  context.Canceled,
			want: &want{mcperr.CodeRequestCancelled, "context canceled", ""},
		},
		{
			name: "an expired context",
			err:  context.DeadlineExceeded,
			want: &want{mcperr.CodeTimeout, "context deadline exceeded", ""},
		},
		{
			name: "anything else is classified",
			err:  errors.New("multi-round-trip: exceeded maximum retries (10)"),
			want: &want{mcperr.CodeInternalError, "multi-round-trip: exceeded maximum retries (10)", ""},
		},
		{
			name: "secrets in a local error are scrubbed",
			err:  calling(fmt.Errorf("POST https://user:hunter2@example.com/mcp: %w", syscall.ECONNREFUSED)),
			want: &want{mcperr.CodeServiceUnavailable, `calling "tools/call": POST https://[REDACTED]@example.com/mcp: connection refused`, ""},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mcpclient.FromRPC(tc.err)
			check(t, got, tc.want)
			if tc.err != nil && !errors.Is(got, tc.err) {
				t.Errorf("errors.Is(FromRPC(err), err) = false: the original error is not in the chain")
			}
		})
	}
}

// TestFromRPCKeepsTheChain: what the session returned stays reachable.
func TestFromRPCKeepsTheChain(t *testing.T) {
	w := &jsonrpc.Error{Code: -32001, Message: "gone"}
	var got *jsonrpc.Error
	if e := mcpclient.FromRPC(calling(w)); !errors.As(e, &got) || got != w {
		t.Errorf("errors.As(*jsonrpc.Error) = %v, want the server's error", got)
	}
	if e := mcpclient.FromRPC(fmt.Errorf("wrapped: %w", context.Canceled)); !errors.Is(e, context.Canceled) {
		t.Errorf("errors.Is(context.Canceled) = false for %v", e)
	}
	e := mcperr.NotFound("already typed")
	if got := mcpclient.FromRPC(e); got != e {
		t.Errorf("FromRPC(*mcperr.Error) = %p, want the same error %p", got, e)
	}
}
