package mcpcore

// A task is the same call, detached from its request: the dispatch is
// today's up to the handler; the handler of a call that may become a task
// runs in a goroutine, and when it still runs after its window (or the tool
// runs only as a task) the call is written to the task store, the request
// is answered with a CreateTaskResult, and the call's one end runs later,
// when the handler is done, its outcome written to the store.

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// taskStoreTimeout bounds one write of a call becoming a task: past it, the
// call is answered when it ends, as any call.
const taskStoreTimeout = 200 * time.Millisecond

// A taskCall is what a call of a tool with a Task mode knows of its task.
type taskCall struct {
	support TaskSupport // resolved against the Config
	// capable: the request declared the extension, and the call's context
	// was detached from the request's (see linkRequest).
	capable  bool
	request  context.Context
	stopLink func() bool
	id       atomic.Pointer[string]
	detached atomic.Bool // the call is a task: its request was answered
	// wake tells the runner of a task waiting for answers to read it
	// again: tasks/update on this server, the store's Watch, or the
	// re-read of the running tasks finding the answers in (rereadTask).
	wake chan struct{}
	// progress throttles the writes of the handler's progress reports.
	progress taskProgress
}

// errDetached tells serve that the call became a task: the request is
// answered with the result as it is, and the call ends later.
var errDetached = errors.New("mcpcore: the call became a task")

// taskSlotKey carries a CreateTaskResult out of a tool's handler, in the
// _meta of the placeholder result the SDK passes on, to receive, which
// answers with it instead.
const taskSlotKey = "mcpcore/taskSlot"

// A taskEnd is the framework ending a task on its own: its TTL passed, or
// the server shut down past its grace. It is the cause its context is
// cancelled with; the task ends failed with err, which is retryable.
type taskEnd struct{ err *mcperr.Error }

func (e *taskEnd) Error() string { return e.err.Message() }

var (
	errTaskTTL = &taskEnd{mcperr.ServiceUnavailable("The task ran past its TTL and was stopped; call the tool again.",
		mcperr.WithData(map[string]any{"retryable": true}), mcperr.WithCause(errFrameworkEnd))}
	errTaskShutdown = &taskEnd{mcperr.ServiceUnavailable("The server shut down before the task finished; call the tool again.",
		mcperr.WithData(map[string]any{"retryable": true}), mcperr.WithCause(errFrameworkEnd))}
	errTaskOwnerGone = &taskEnd{mcperr.ServiceUnavailable("The server replica running this task stopped before it finished; call the tool again.",
		mcperr.WithData(map[string]any{"retryable": true}), mcperr.WithCause(errFrameworkEnd))}
	// errFrameworkEnd marks the failures of a task the framework ended.
	errFrameworkEnd = errors.New("mcpcore: the framework ended the task")
	// errTaskCancelled is the cause of a task the client cancelled.
	errTaskCancelled = errors.New("mcpcore: the client cancelled the task")
)

// newTaskCall starts what a call of a tool with a Task mode knows: when
// its request declared the extension, the call's context is the request's
// without its cancellation, which linkRequest forwards until the call
// becomes a task.
func (s *Server) newTaskCall(ctx context.Context, support TaskSupport, version string, meta map[string]any) (context.Context, *taskCall) {
	tc := &taskCall{support: support}
	if declaresTasks(version, meta) || legacyTaskCall(version, meta, &tc.support) {
		tc.capable, tc.request = true, ctx
		ctx = context.WithoutCancel(ctx)
	}
	return ctx, tc
}

// linkRequest makes the call's context end with its request's, until the
// call becomes a task.
func (c *callState) linkRequest() {
	req := c.task.request
	c.task.stopLink = context.AfterFunc(req, func() { c.cancel(context.Cause(req)) })
}

// taskResult is what a task's handler ended with.
type taskResult struct {
	res *mcp.CallToolResult
	err error
}

// runTask runs a call that may become a task: decoded and validated first,
// so that invalid arguments are answered before any task exists; then the
// handler, in a goroutine, and the window.
func (t toolCall) runTask(c *callState) (*mcp.CallToolResult, error) {
	work, err := t.rt.start(c.ctx, t.args)
	if err != nil {
		return nil, err
	}
	done := make(chan taskResult, 1)
	tc := c.task
	if tc.support.After == TaskAtOnce {
		// A task before its handler starts: what the handler does, its
		// progress and its questions included, is the task's.
		placeholder, err := t.s.becomeTask(c, done, t)
		if err != nil && err != errStaySync {
			return nil, err // refused: the handler never runs
		}
		t.spawn(work, done)
		if err != nil {
			r := <-done
			return r.res, r.err
		}
		return placeholder, errDetached
	}
	t.spawn(work, done)
	timer := time.NewTimer(tc.support.After)
	select {
	case r := <-done:
		timer.Stop()
		// Quick enough, or questions before the task (multi-round
		// input): answered as any call.
		if tc.support.Mode == TaskOptional || c.ctx.x.asks(r.err) {
			return r.res, r.err
		}
		done <- r // a task ended already
	case <-timer.C:
	}
	placeholder, err := t.s.becomeTask(c, done, t)
	if err == errStaySync {
		r := <-done
		return r.res, r.err
	}
	if err != nil {
		c.cancel(err) // refused: the handler stops, its result unread
		<-done
		return nil, err
	}
	return placeholder, errDetached
}

// launch decodes and validates the call's arguments, then runs its
// handler (and renders its result) in a goroutine, whose end it returns.
func (t toolCall) launch(c *callState) (chan taskResult, error) {
	work, err := t.rt.start(c.ctx, t.args)
	if err != nil {
		return nil, err
	}
	done := make(chan taskResult, 1)
	t.spawn(work, done)
	return done, nil
}

// spawn runs work, the handler of a decoded and validated call, and renders
// its result, in a goroutine that sends its end on done.
func (t toolCall) spawn(work func() (*toolOutput, error), done chan<- taskResult) {
	go func() {
		res, err := guard(func() (*mcp.CallToolResult, error) {
			out, err := work()
			if err != nil {
				return nil, err
			}
			return t.result(out)
		})
		done <- taskResult{res, err}
	}()
}

// becomeTask makes the call a task: a place among the running tasks, the
// record created in the store (durable on return, so that a tasks/get
// anywhere finds it the moment the client has its id), the call detached
// from its request; then the runner waits for its end. It returns the
// placeholder that carries the CreateTaskResult, or errStaySync when the
// call is to be answered when it ends, as any call: no place, the store
// away or failed, or the request ended meanwhile; a tool that runs only as
// a task is refused instead when the store is away or failed.
func (s *Server) becomeTask(c *callState, done chan taskResult, k toolCall) (*mcp.CallToolResult, error) {
	tc := c.task
	if !s.taskStoreHealthy() {
		return nil, s.taskStoreFailed(c, nil)
	}
	if !s.taskRunner.reserve() {
		return nil, errStaySync
	}
	// From here the request no longer ends the call; put back if it
	// stays a call.
	if !tc.stopLink() || (c.stopHangUp != nil && !c.stopHangUp()) {
		s.taskRunner.release()
		return nil, errStaySync
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.ctx), taskStoreTimeout)
	rec, err := s.taskStore.Create(ctx, fleet.Task{ID: rand.Text(), Tool: c.name, Principal: principalOf(c.ctx.token),
		Status: fleet.TaskWorking, TTL: tc.support.TTL, PollInterval: tc.support.PollInterval})
	cancel()
	if err != nil {
		s.taskRunner.release()
		c.linkRequest()
		s.linkHangUp(c)
		return nil, s.taskStoreFailed(c, err)
	}
	c.stopHangUp = nil
	tc.id.Store(&rec.ID)
	tc.detached.Store(true)
	s.becameTask(c, rec.ID)
	s.inflight.detach(c.token, errTaskShutdown)
	tc.wake = make(chan struct{}, 1)
	if s.taskRunner.add(rec.ID, runningTask{cancel: c.cancel, principal: rec.Principal, wake: tc.wake, shadow: newTaskShadow(rec)}) {
		go s.rereadTasks()
	}
	go s.finishTask(c, rec, done, k)
	return &mcp.CallToolResult{Meta: mcp.Meta{taskSlotKey: &createTaskResult{ResultType: "task", taskFields: fieldsOf(rec)}}}, nil
}

// finishTask waits for the handler of task rec, bounded by its TTL, and
// ends the call once (s.end, as serve would have), writing its outcome. A
// run that ends with questions makes the task input_required, and the
// handler runs again with the answers (see askInTask). A task that ended
// meanwhile keeps its status: the store refuses the late outcome, as
// expected of a cancelled one; of one another replica ended failed (see
// errTaskAbandoned), it is logged once, a warning.
func (s *Server) finishTask(c *callState, rec fleet.Task, done chan taskResult, k toolCall) {
	defer s.taskRunner.remove(rec.ID)
	// Ahead of the record's expiry, so that the failure is written while
	// the record lives, and then kept for the retention.
	ttl := time.AfterFunc(time.Until(rec.Expires().Add(-ttlMargin(rec.TTL))), func() { c.cancel(errTaskTTL) })
	defer ttl.Stop()
	r := <-done
	var asked map[string]string // every question of the task, by key
	for {
		questions, next := c.ctx.x.inputRequired(r.err)
		if questions == nil {
			break
		}
		answers, err := s.askInTask(c, rec, questions, next, &asked)
		if err != nil {
			r = taskResult{err: err}
			break
		}
		c.ctx.x.rerun(next, answers)
		if done, err = k.launch(c); err != nil {
			r = taskResult{err: err}
			break
		}
		r = <-done
	}
	if r.err == nil && context.Cause(c.ctx) == errTaskCancelled {
		// The client was told the task was cancelled: so are the log, the
		// span and the metrics, whatever the handler returned after.
		r.err = errTaskCancelled
	}
	size := 0
	if r.err == nil {
		size = k.size(r.res)
	}
	f := s.end(c, r.err, size)
	change := taskOutcome(r.res, f)
	ctx, cancel := context.WithTimeout(context.Background(), taskStoreTimeout)
	defer cancel()
	ended, err := s.ownerUpdate(ctx, rec.ID, change)
	switch {
	case err == nil:
		s.legacyTaskStatus(c, ended)
	case errchain.Is(err, fleet.ErrTaskEnded):
		if ended.Status != fleet.TaskCancelled {
			s.dropLateResult(rec, ended.Status)
			break
		}
		s.legacyTaskStatus(c, ended)
	default:
		s.logger.LogAttrs(ctx, slog.LevelWarn, "mcpcore: the outcome of a task could not be written",
			slog.String("taskId", rec.ID), slog.String("tool", rec.Tool), slog.String("error", err.Error()))
	}
}

// dropLateResult logs, once, the outcome of task rec that the store
// refused because the task had already ended as status without its owner:
// another replica abandoned it, this one having looked stopped. Repeats
// (a fleet's worth of tasks after a long pause) are collapsed.
func (s *Server) dropLateResult(rec fleet.Task, status fleet.TaskStatus) {
	msg := "mcpcore: dropped the late result of task " + rec.ID + ": it had already ended as " + string(status)
	attrs := []slog.Attr{slog.String("taskId", rec.ID), slog.String("tool", rec.Tool), slog.String("status", string(status))}
	if s.repeats.Admit("late task result", slog.LevelWarn, msg, attrs) {
		s.logger.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
	}
}

// ttlMargin is how long before its record expires a task still running is
// stopped: a second, or a quarter of a TTL shorter than four.
func ttlMargin(ttl time.Duration) time.Duration { return min(ttl/4, time.Second) }

// asks reports whether err ends the round with questions for the client.
func (x *exchange) asks(err error) bool {
	q, _ := x.inputRequired(err)
	return q != nil
}
