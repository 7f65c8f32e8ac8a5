package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// contract is a tool's published contract, one entry per retryability.
var contract = []mcpcore.Failure{
	{Reason: "queue_full", Code: mcperr.CodeRateLimited, When: "w", Recovery: "r", Retryable: mcpcore.Retryable},
	{Reason: "gone", Code: mcperr.CodeServiceUnavailable, When: "w", Recovery: "r", Retryable: mcpcore.NotRetryable},
	{Reason: "no_match", Code: mcperr.CodeNotFound, When: "w", Recovery: "r"},
}

// wire returns the error a client reads from a structured tool error.
func wire(t *testing.T, object string) *mcperr.Error {
	t.Helper()
	e := mcpclient.ErrorOf(&mcp.CallToolResult{IsError: true, StructuredContent: json.RawMessage(`{"error":` + object + `}`)})
	if e == nil {
		t.Fatalf("no error in %s", object)
	}
	return e
}

func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		object string // the structured error; "" for err
		err    error
		want   bool
	}{
		{name: "data.retryable true", object: `{"code":-32002,"message":"m","data":{"retryable":true}}`, want: true},
		{name: "data.retryable false", object: `{"code":-32000,"message":"m","data":{"retryable":false}}`},
		{name: "declared Retryable, no flag", object: `{"code":-32003,"message":"m","data":{"reason":"queue_full"}}`, want: true},
		{name: "declared Retryable, flag true", object: `{"code":-32003,"message":"m","data":{"reason":"queue_full","retryable":true}}`, want: true},
		{name: "declared Retryable, flag false", object: `{"code":-32003,"message":"m","data":{"reason":"queue_full","retryable":false}}`},
		{name: "declared NotRetryable, flag true", object: `{"code":-32000,"message":"m","data":{"reason":"gone","retryable":true}}`},
		{name: "declared NotRetryable, transient code", object: `{"code":-32000,"message":"m","data":{"reason":"gone"}}`},
		{name: "declared unspecified", object: `{"code":-32001,"message":"m","data":{"reason":"no_match"}}`},
		{name: "same reason, other code: not the declared entry", object: `{"code":-32001,"message":"m","data":{"reason":"queue_full"}}`},
		{name: "a transient code alone", object: `{"code":-32000,"message":"upstream down"}`},
		{name: "a Timeout alone", object: `{"code":-32004,"message":"slow"}`},
		{name: "a RateLimited alone", object: `{"code":-32003,"message":"slow down","data":{"retryAfter":1}}`},
		{name: "a non-boolean flag", object: `{"code":-32003,"message":"m","data":{"retryable":"true"}}`},
		{name: "a JSON-RPC error marked retryable",
			err:  mcpclient.FromRPC(&jsonrpc.Error{Code: -32000, Message: "m", Data: json.RawMessage(`{"retryable":true}`)}),
			want: true},
		{name: "wrapped", err: fmt.Errorf("ordering: %w", mcperr.New(mcperr.CodeConflict, "m", mcperr.WithData(map[string]any{"retryable": true}))), want: true},
		{name: "a closed connection", err: mcpclient.FromRPC(fmt.Errorf("%w: x", mcp.ErrConnectionClosed))},
		{name: "a timeout of the client", err: mcpclient.FromRPC(context.DeadlineExceeded)},
		{name: "a result that does not decode", err: mcperr.SerializationError("m", mcperr.WithCause(errors.New("json: bad")))},
		{name: "not an *mcperr.Error", err: errors.New("service unavailable")},
		{name: "nil", err: nil},
		{name: "an Unwrap that returns itself", err: &selfError{}},
		{name: "a join that holds itself", err: &selfJoinError{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err
			if tc.object != "" {
				err = wire(t, tc.object)
			}
			if got := mcpclient.Retryable(err, contract); got != tc.want {
				t.Errorf("Retryable = %v, want %v", got, tc.want)
			}
		})
	}
}

// selfError unwraps to itself: the standard errors.As never returns on it.
type selfError struct{}

func (*selfError) Error() string   { return "loop" }
func (e *selfError) Unwrap() error { return e }

// selfJoinError holds itself: the standard errors.As overflows the stack.
type selfJoinError struct{}

func (*selfJoinError) Error() string     { return "loop" }
func (e *selfJoinError) Unwrap() []error { return []error{e, e} }

// fast retries at once, without jitter.
var fast = mcperr.RetryOptions{BaseDelay: time.Microsecond, Jitter: mcperr.NoJitter}

// TestRetry counts the attempts Retry makes for a call that always fails
// with one error.
func TestRetry(t *testing.T) {
	for _, tc := range []struct {
		name     string
		object   string
		opts     mcperr.RetryOptions
		attempts int
	}{
		{name: "declared Retryable: every attempt", object: `{"code":-32003,"message":"Queue at capacity","data":{"reason":"queue_full"}}`, opts: fast, attempts: 4},
		{name: "flagged: every attempt", object: `{"code":-32002,"message":"busy","data":{"retryable":true}}`, opts: fast, attempts: 4},
		{name: "MaxRetries is mcperr.Retry's", object: `{"code":-32002,"message":"busy","data":{"retryable":true}}`,
			opts: mcperr.RetryOptions{MaxRetries: 1, BaseDelay: time.Microsecond}, attempts: 2},
		{name: "declared NotRetryable: once", object: `{"code":-32000,"message":"gone","data":{"reason":"gone"}}`, opts: fast, attempts: 1},
		{name: "unspecified: once", object: `{"code":-32001,"message":"None","data":{"reason":"no_match"}}`, opts: fast, attempts: 1},
		{name: "transient code, not marked: once", object: `{"code":-32000,"message":"down"}`, opts: fast, attempts: 1},
		{name: "IsTransient can veto", object: `{"code":-32003,"message":"Queue at capacity","data":{"reason":"queue_full"}}`,
			opts: mcperr.RetryOptions{BaseDelay: time.Microsecond, IsTransient: func(error) bool { return false }}, attempts: 1},
		{name: "IsTransient cannot widen", object: `{"code":-32000,"message":"down"}`,
			opts: mcperr.RetryOptions{BaseDelay: time.Microsecond, IsTransient: func(error) bool { return true }}, attempts: 1},
		{name: "a Retry-After beyond MaxDelay: once", object: `{"code":-32003,"message":"m","data":{"retryable":true,"retryAfter":60}}`,
			opts: mcperr.RetryOptions{BaseDelay: time.Microsecond, MaxDelay: time.Second}, attempts: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := wire(t, tc.object)
			attempts := 0
			_, err := mcpclient.RetryByContract(context.Background(), tc.opts, contract, func(context.Context) (struct{}, error) {
				attempts++
				return struct{}{}, e
			})
			if attempts != tc.attempts {
				t.Errorf("attempts = %d, want %d", attempts, tc.attempts)
			}
			if tc.attempts == 1 && err != error(e) {
				t.Errorf("error = %v, want the call's error, unchanged", err)
			}
			if tc.attempts > 1 {
				// mcperr.Retry's exhausted error: same code, the attempts in data.
				got := asError(t, err)
				if got.Code() != e.Code() || got.Data()["retryAttempts"] != tc.attempts || !errors.Is(err, e) {
					t.Errorf("error = %v %q %v, want code %v, retryAttempts %d, the last error as cause",
						got.Code(), got.Message(), got.Data(), e.Code(), tc.attempts)
				}
			}
		})
	}
}

// TestRetrySucceeds: a call that succeeds after two retryable failures
// returns its value.
func TestRetrySucceeds(t *testing.T) {
	e := wire(t, `{"code":-32003,"message":"Queue at capacity","data":{"reason":"queue_full","retryable":true}}`)
	attempts := 0
	got, err := mcpclient.RetryByContract(context.Background(), fast, contract, func(context.Context) (string, error) {
		attempts++
		if attempts < 3 {
			return "", e
		}
		return "ok", nil
	})
	if got != "ok" || err != nil || attempts != 3 {
		t.Errorf("Retry = %q, %v after %d attempts; want ok, nil after 3", got, err, attempts)
	}
}

// TestRetryHonoursRetryAfter: a data.retryAfter the server sent (a float64
// once decoded) is the wait.
func TestRetryHonoursRetryAfter(t *testing.T) {
	e := wire(t, `{"code":-32003,"message":"m","data":{"retryable":true,"retryAfter":0.05}}`)
	start := time.Now()
	attempts := 0
	mcpclient.RetryByContract(context.Background(), mcperr.RetryOptions{MaxRetries: 1, BaseDelay: time.Microsecond}, nil,
		func(context.Context) (int, error) {
			attempts++
			return 0, e
		})
	if elapsed := time.Since(start); attempts != 2 || elapsed < 50*time.Millisecond {
		t.Errorf("%d attempts in %v, want 2 attempts, 50ms apart", attempts, elapsed)
	}
}
