package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The bounds of the interval [Call] polls a task at: the server's
// pollIntervalMs within [MinPollInterval, MaxPollInterval], and
// DefaultPollInterval when it advises none.
const (
	MinPollInterval     = 100 * time.Millisecond
	MaxPollInterval     = time.Minute
	DefaultPollInterval = time.Second
)

// cancelTimeout bounds the tasks/cancel [Call] sends when it gives up a
// task, detached from the caller's context, which has often ended.
const cancelTimeout = 2 * time.Second

// maxPollFailures is how many polls in a row may fail with an error the
// server marked retryable (a replica that cannot reach the task store, say)
// before [Call] gives up the task.
const maxPollFailures = 5

// pollInterval is the interval to poll at, given the server's advice (""
// for none) and the interval used so far.
func pollInterval(advised json.Number, current time.Duration) time.Duration {
	if advised == "" {
		return current
	}
	ms, err := advised.Float64()
	if err != nil || math.IsNaN(ms) {
		return current
	}
	switch {
	case ms <= float64(MinPollInterval/time.Millisecond):
		return MinPollInterval
	case ms >= float64(MaxPollInterval/time.Millisecond):
		return MaxPollInterval
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// AwaitTask returns res, the answer to a call of the tool name, when it is a
// result; when it is a task the server created in place of the result (see
// [TaskOf]), AwaitTask waits for the task's end as [Call] does, and returns
// the result of a completed task (which may have isError true, as when
// answered at once) or, for a task that ended otherwise, the error [Call]
// documents. It is for a caller that reads the [mcp.CallToolResult] itself
// rather than decode it as Call does.
func AwaitTask(ctx context.Context, cs *mcp.ClientSession, name string, res *mcp.CallToolResult) (*mcp.CallToolResult, error) {
	t := TaskOf(res)
	if t == nil {
		return res, nil
	}
	return awaitTask(ctx, cs, name, t)
}

// awaitTask polls the task t, which the server created in place of the
// result of a call of tool, until it ends, and returns the result of a
// completed task or the error of one that did not, as [Call] documents.
func awaitTask(ctx context.Context, cs *mcp.ClientSession, tool string, t *Task) (*mcp.CallToolResult, error) {
	w := &taskWait{cs: cs, tool: tool, id: t.TaskID, answered: map[string]bool{}}
	interval := pollInterval(t.PollIntervalMs, DefaultPollInterval)
	// A CreateTaskResult carries no result, error or questions: a task
	// created in any status but working is read at once.
	wait := t.Status == fleet.TaskWorking
	failures := 0
	for {
		if wait {
			timer := time.NewTimer(interval)
			select {
			case <-ctx.Done():
				timer.Stop()
				return nil, w.giveUp(ctx, FromRPC(ctx.Err()))
			case <-timer.C:
			}
		}
		wait = true
		d, err := GetTask(ctx, cs, w.id)
		if err != nil {
			if ctx.Err() != nil {
				return nil, w.giveUp(ctx, FromRPC(ctx.Err()))
			}
			if failures++; failures < maxPollFailures && Retryable(err, nil) {
				continue
			}
			return nil, w.giveUp(ctx, err)
		}
		failures = 0
		interval = pollInterval(d.PollIntervalMs, interval)
		switch d.Status {
		case fleet.TaskWorking:
		case fleet.TaskInputRequired:
			if err := w.answer(ctx, d.InputRequests); err != nil {
				if ctx.Err() != nil {
					err = FromRPC(ctx.Err())
				}
				return nil, w.giveUp(ctx, err)
			}
		case fleet.TaskCompleted:
			return w.completed(d)
		case fleet.TaskFailed:
			return nil, w.failed(d)
		case fleet.TaskCancelled:
			return nil, mcperr.RequestCancelled(w.said(fmt.Sprintf("Tool %s's task was cancelled", tool), d))
		default:
			return nil, w.giveUp(ctx, mcperr.SerializationError(
				fmt.Sprintf("Tool %s's task has the status %q, which is none of the tasks extension's.", tool, d.Status)))
		}
	}
}

// A taskWait is one task [Call] waits for.
type taskWait struct {
	cs       *mcp.ClientSession
	tool, id string
	// answered holds the keys of the questions answered: the extension
	// keeps a key unique over a task's life, and a server may still list
	// a question it has been given the answer to.
	answered map[string]bool
}

// answer has the session answer the questions (inputRequests) it has not
// answered yet, and gives the server the answers.
func (w *taskWait) answer(ctx context.Context, inputRequests json.RawMessage) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(inputRequests, &all); err != nil {
		return mcperr.SerializationError(fmt.Sprintf("Tool %s's task asks for input in a shape the client cannot read: %v", w.tool, err),
			mcperr.WithCause(err))
	}
	open := make(map[string]json.RawMessage, len(all))
	for k, q := range all {
		if !w.answered[k] {
			open[k] = q
		}
	}
	if len(open) == 0 {
		return nil
	}
	answers, err := answerInput(ctx, w.cs, w.tool, open)
	if err != nil {
		return err
	}
	if err := UpdateTask(ctx, w.cs, w.id, answers); err != nil {
		return err
	}
	for k := range open {
		w.answered[k] = true
	}
	return nil
}

// completed returns the result of the completed task d.
func (w *taskWait) completed(d *DetailedTask) (*mcp.CallToolResult, error) {
	var res mcp.CallToolResult
	if len(d.Result) == 0 {
		return nil, mcperr.SerializationError(fmt.Sprintf("Tool %s's task completed without a result.", w.tool))
	}
	if err := json.Unmarshal(d.Result, &res); err != nil {
		return nil, mcperr.SerializationError(fmt.Sprintf("Tool %s's task completed with a result the client cannot read: %v", w.tool, err),
			mcperr.WithCause(err))
	}
	return &res, nil
}

// failed returns the error of the failed task d: its JSON-RPC error, as
// [FromRPC] gives the same error answered to the request.
func (w *taskWait) failed(d *DetailedTask) error {
	var obj struct {
		Code    json.RawMessage `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if len(d.Error) > 0 && json.Unmarshal(d.Error, &obj) == nil && obj.Message != nil {
		if code, ok := contract.ParseCode(obj.Code); ok {
			return FromRPC(&jsonrpc.Error{Code: int64(code), Message: *obj.Message, Data: obj.Data})
		}
	}
	return mcperr.New(mcperr.CodeUnknownError, w.said(fmt.Sprintf("Tool %s's task failed without a readable error", w.tool), d))
}

// said is what, followed by the task's status message when it has one.
func (w *taskWait) said(what string, d *DetailedTask) string {
	if d.StatusMessage == "" {
		return what + "."
	}
	return what + ": " + d.StatusMessage
}

// giveUp cancels the task, which the client will not wait for any more, and
// returns err. The cancel is detached from ctx, which has often ended, and
// bounded; its own failure is dropped, since the task ends at its TTL
// anyway.
func (w *taskWait) giveUp(ctx context.Context, err error) error {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer cancel()
	_ = CancelTask(cctx, w.cs, w.id)
	return err
}
