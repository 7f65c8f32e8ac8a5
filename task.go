package mcpcore

import (
	"fmt"
	"time"
)

// A TaskMode says whether a tool's calls may outlive their request as
// tasks (the extension io.modelcontextprotocol/tasks of MCP 2026-07-28).
type TaskMode int

const (
	// TaskNever runs every call within its request, as any call runs: the
	// zero value.
	TaskNever TaskMode = iota
	// TaskOptional makes a call a task when the request declared the
	// extension and the call still runs after TaskSupport.After: the
	// client gets a task to poll rather than waiting. A call that ends
	// sooner, or whose request did not declare the extension, is answered
	// at once, as any call is.
	TaskOptional
	// TaskRequired runs every call as a task: a request that did not
	// declare the extension is refused with MissingClientCapability
	// (-32021) before the handler runs.
	TaskRequired
)

// String is the mode as tools/list publishes it under _meta["mcpcore/task"].
func (m TaskMode) String() string {
	switch m {
	case TaskNever:
		return "never"
	case TaskOptional:
		return "optional"
	case TaskRequired:
		return "required"
	}
	return fmt.Sprintf("TaskMode(%d)", int(m))
}

// TaskAtOnce, as TaskSupport.After, makes a call a task before its
// handler starts, so that the handler's questions to the client are the
// task's (input_required), not the request's.
const TaskAtOnce time.Duration = -1

// maxTaskTTL is the longest a task may live.
const maxTaskTTL = 24 * time.Hour

// TaskSupport says whether, and how, a tool's calls may outlive their
// request as tasks. The handler is the same either way: it receives the
// same [*Context] and returns the same result or failure, which the client
// reads from the task when the call became one. Its context is cancelled
// when the client cancels the task (tasks/cancel), when its TTL passes and
// when the server shuts down past its grace; not when the HTTP request that
// started it ends. [Context.TaskID] tells the handler its task.
type TaskSupport struct {
	// Mode is TaskNever (the zero value), TaskOptional or TaskRequired.
	Mode TaskMode
	// After is how long a call runs before it becomes a task; zero is
	// Config.TaskAfter (MCP_TASK_AFTER, 250 ms), TaskAtOnce before the
	// handler starts. Questions the handler asks the client sooner are
	// asked within the request, over multi-round input, before any task
	// exists.
	After time.Duration
	// TTL is how long a task lives from its creation; zero is
	// Config.TaskTTL (MCP_TASK_TTL, an hour). A task still running a
	// second before then (a quarter of a TTL under four seconds) is
	// cancelled and ends failed (ServiceUnavailable, retryable), readable
	// a minute more. At most 24 hours.
	TTL time.Duration
	// PollInterval is how often the client is told to poll; zero is
	// Config.TaskPollInterval (MCP_TASK_POLL_INTERVAL, a second).
	PollInterval time.Duration
}

// check reports what is wrong with the support a tool declares.
func (t TaskSupport) check() error {
	switch {
	case t.Mode < TaskNever || t.Mode > TaskRequired:
		return fmt.Errorf("the Task.Mode %d is none of TaskNever, TaskOptional, TaskRequired", int(t.Mode))
	case t.Mode == TaskNever && t != TaskSupport{}:
		return fmt.Errorf("the Task sets After, TTL or PollInterval with Mode TaskNever, which never runs a task")
	case t.After < 0 && t.After != TaskAtOnce:
		return fmt.Errorf("the Task.After %s is negative; use TaskAtOnce to start the task before the handler", t.After)
	case t.TTL < 0 || t.TTL > maxTaskTTL:
		return fmt.Errorf("the Task.TTL %s is not between 0 (the default) and %s", t.TTL, maxTaskTTL)
	case t.PollInterval < 0:
		return fmt.Errorf("the Task.PollInterval %s is negative", t.PollInterval)
	}
	return nil
}

// resolved is the support with every zero setting given cfg's.
func (t TaskSupport) resolved(cfg Config) TaskSupport {
	if t.After == 0 {
		t.After = cfg.TaskAfter
	}
	if t.TTL == 0 {
		t.TTL = cfg.TaskTTL
	}
	if t.PollInterval == 0 {
		t.PollInterval = cfg.TaskPollInterval
	}
	return t
}

// TaskID returns the id of the task this call runs as, or "" while it
// runs within its request (and for a tool that never runs as a task).
func (c *Context) TaskID() string {
	if c == nil || c.task == nil {
		return ""
	}
	if id := c.task.id.Load(); id != nil {
		return *id
	}
	return ""
}
