package mcpclient_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type answerOut struct {
	Answer int `json:"answer"`
}

func TestCallPollsToResult(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := &taskServer{}
			cs := tr.dial(t, s, nil)
			out, err := mcpclient.Call[answerOut](context.Background(), cs, "compute", nil)
			if err != nil || out.Answer != 42 {
				t.Fatalf("Call = %+v, %v; want 42", out, err)
			}
			id := "T1QJ5V2XHKZ7TQ4M6W3LRB5Y2A"
			if got, want := s.calls("tasks/"), []string{"tasks/get " + id, "tasks/get " + id, "tasks/get " + id}; !reflect.DeepEqual(got, want) {
				t.Errorf("the server saw %v, want %v", got, want)
			}
		})
	}
}

// TestCallCompletedErrorIsTheSyncError: a task that completed with an
// isError result is the same *mcperr.Error as the call answered at once.
func TestCallCompletedErrorIsTheSyncError(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := &taskServer{}
			cs := tr.dial(t, s, nil)
			_, taskErr := mcpclient.Call[answerOut](context.Background(), cs, "reject", nil)
			check(t, asError(t, taskErr), &want{mcperr.CodeNotFound, "No item 9.",
				`{"reason":"no_match","retryable":false,"recovery":{"hint":"Try IDs 1-100."}}`})
			if got := s.calls("tools/call"); !reflect.DeepEqual(got, []string{"tools/call reject declared"}) {
				t.Errorf("the server saw %v, want a task", got)
			}

			ct, st := mcp.NewInMemoryTransports()
			if _, err := s.server().Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			sync, err := mcp.NewClient(&mcp.Implementation{Name: "sync"}, nil).Connect(context.Background(), ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer sync.Close()
			_, syncErr := mcpclient.Call[answerOut](context.Background(), sync, "reject", nil)
			a, b := asError(t, taskErr), asError(t, syncErr)
			if a.Code() != b.Code() || a.Message() != b.Message() || !reflect.DeepEqual(a.Data(), b.Data()) {
				t.Errorf("task error %v %q %v\n!= sync error %v %q %v", a.Code(), a.Message(), a.Data(), b.Code(), b.Message(), b.Data())
			}
		})
	}
}

// TestCallFailedTaskIsRetried: a failed task is its JSON-RPC error, which
// RetryByContract retries when the server marked it retryable.
func TestCallFailedTaskIsRetried(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := &taskServer{failures: 1}
			cs := tr.dial(t, s, nil)
			ctx := context.Background()

			_, err := mcpclient.Call[answerOut](ctx, cs, "flaky", nil)
			check(t, asError(t, err), &want{mcperr.CodeServiceUnavailable,
				"The server replica running this task stopped before it finished; call the tool again.", `{"retryable":true}`})
			var w *jsonrpc.Error
			if !errors.As(err, &w) || w.Code != -32000 {
				t.Errorf("the *jsonrpc.Error is not in the chain of %v", err)
			}

			s.mu.Lock()
			s.failures = 1
			s.mu.Unlock()
			attempts := 0
			opts := mcperr.RetryOptions{MaxRetries: 2, BaseDelay: time.Millisecond, Jitter: mcperr.NoJitter}
			out, err := mcpclient.RetryByContract(ctx, opts, nil, func(ctx context.Context) (answerOut, error) {
				attempts++
				return mcpclient.Call[answerOut](ctx, cs, "flaky", nil)
			})
			if err != nil || out.Answer != 42 || attempts != 2 {
				t.Errorf("RetryByContract = %+v, %v after %d attempts; want 42 after 2", out, err, attempts)
			}
			if n := len(s.calls("tools/call flaky declared")); n != 3 {
				t.Errorf("%d tasks created, want 3", n)
			}
		})
	}
}

// TestCallCancelsTaskOnContextEnd: the server hears tasks/cancel for the
// task a Call stopped waiting for, and the caller gets its context's error.
func TestCallCancelsTaskOnContextEnd(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := &taskServer{}
			cs := tr.dial(t, s, nil)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error)
			go func() {
				_, err := mcpclient.Call[answerOut](ctx, cs, "forever", nil)
				done <- err
			}()
			// Cancel once the task is being polled.
			for len(s.calls("tasks/get")) == 0 {
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
			err := <-done
			if e := asError(t, err); e.Code() != mcperr.CodeRequestCancelled || !errors.Is(err, context.Canceled) {
				t.Errorf("error = %v %q, want RequestCancelled wrapping context.Canceled", e.Code(), e.Message())
			}
			id := "T1QJ5V2XHKZ7TQ4M6W3LRB5Y2A"
			if got := s.calls("tasks/cancel"); !reflect.DeepEqual(got, []string{"tasks/cancel " + id}) {
				t.Errorf("the server saw %v, want tasks/cancel %s", got, id)
			}
			s.mu.Lock()
			cancelled := s.tasks[id].cancelled
			s.mu.Unlock()
			if !cancelled {
				t.Error("the task is not cancelled")
			}

			// A deadline is a Timeout, as for a call answered at once.
			ctx, cancel = context.WithTimeout(context.Background(), 150*time.Millisecond)
			defer cancel()
			_, err = mcpclient.Call[answerOut](ctx, cs, "forever", nil)
			if e := asError(t, err); e.Code() != mcperr.CodeTimeout || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error = %v %q, want Timeout wrapping context.DeadlineExceeded", e.Code(), e.Message())
			}
			if n := len(s.calls("tasks/cancel")); n != 2 {
				t.Errorf("%d tasks/cancel, want 2", n)
			}
		})
	}
}

// TestCallCancelledTask: a task the server cancelled is a RequestCancelled
// with its status message.
func TestCallCancelledTask(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.dial(t, &taskServer{}, nil)
			_, err := mcpclient.Call[answerOut](context.Background(), cs, "dropped", nil)
			check(t, asError(t, err), &want{mcperr.CodeRequestCancelled, "Tool dropped's task was cancelled: Cancelled by the operator.", ""})
		})
	}
}

// TestCallAnswersInput: the session's elicitation handler answers an
// input_required task, through tasks/update, once.
func TestCallAnswersInput(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := &taskServer{}
			asked := 0
			cs := tr.dial(t, s, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked++
					if req.Params.Message != "Go ahead?" {
						t.Errorf("question %q, want Go ahead?", req.Params.Message)
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
				},
			})
			out, err := mcpclient.Call[struct {
				Confirmed bool `json:"confirmed"`
			}](context.Background(), cs, "ask", nil)
			if err != nil || !out.Confirmed {
				t.Fatalf("Call = %+v, %v; want confirmed", out, err)
			}
			if asked != 1 {
				t.Errorf("the handler was asked %d times, want 1", asked)
			}
			id := "T1QJ5V2XHKZ7TQ4M6W3LRB5Y2A"
			if got := s.calls("tasks/update"); !reflect.DeepEqual(got, []string{"tasks/update " + id}) {
				t.Errorf("the server saw %v, want one tasks/update", got)
			}
			if got := s.calls("tools/call"); !reflect.DeepEqual(got, []string{"tools/call ask declared"}) {
				t.Errorf("the server saw %v: the answering call left the process", got)
			}
		})
	}
}

// TestCallCannotAnswerInput: a session without an elicitation handler
// cancels the task and says why; so does one whose multi-round-trip
// handling is off.
func TestCallCannotAnswerInput(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			for _, tc := range []struct {
				name string
				opts *mcp.ClientOptions
				says string
			}{
				{"no handler", nil, "client does not support elicitation"},
				{"no multi-round-trip", &mcp.ClientOptions{
					ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
					},
					MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
				}, "keep the session's multi-round-trip handling enabled"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					s := &taskServer{}
					cs := tr.dial(t, s, tc.opts)
					_, err := mcpclient.Call[answerOut](context.Background(), cs, "ask", nil)
					if e := asError(t, err); e.Code() != mcperr.CodeInvalidRequest || !strings.Contains(e.Message(), tc.says) {
						t.Errorf("error = %v %q, want InvalidRequest saying %q", e.Code(), e.Message(), tc.says)
					}
					if got := s.calls("tasks/cancel"); len(got) != 1 || len(s.calls("tasks/update")) != 0 {
						t.Errorf("the server saw %v, want one tasks/cancel and no update", s.calls("tasks/"))
					}
				})
			}
		})
	}
}
