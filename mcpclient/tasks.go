package mcpclient

import (
	"context"
	"encoding/json"
	"maps"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TasksExtension is the identifier of the MCP tasks extension (SEP-2663),
// under which a client declares, per request, that it can take a task in
// place of a tool's result.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskMetaKey is the key of a [mcp.CallToolResult]'s _meta under which a
// connection wrapped by [Transport] keeps the task a server created in
// place of the result (see [TaskOf]).
const TaskMetaKey = "mcpcore/task"

// The methods of the tasks extension a client sends.
const (
	methodGetTask    = "tasks/get"
	methodUpdateTask = "tasks/update"
	methodCancelTask = "tasks/cancel"
)

// A Task is a server's handle on a tool call it runs on after answering the
// request, as the tasks extension sends it in a CreateTaskResult and in the
// answer to tasks/get.
type Task struct {
	// TaskID is the task's id, which tasks/get, tasks/update and
	// tasks/cancel name.
	TaskID string `json:"taskId"`
	// Status is where the task stands: working, input_required, or one of
	// the terminal completed, failed and cancelled.
	Status fleet.TaskStatus `json:"status"`
	// StatusMessage is the server's word on the status, "" for none.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt and LastUpdatedAt are ISO 8601 timestamps, as sent.
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	// TTLMs is how long after its creation the server keeps the task, in
	// milliseconds as sent; "" when the server sent null (unlimited).
	TTLMs json.Number `json:"ttlMs,omitempty"`
	// PollIntervalMs is the interval in milliseconds the server advises
	// polling at, as sent; "" for none.
	PollIntervalMs json.Number `json:"pollIntervalMs,omitempty"`
}

// A DetailedTask is the answer to tasks/get: the task, and what its status
// carries.
type DetailedTask struct {
	mcp.ResultBase
	Task
	// InputRequests are the server's questions of an input_required task,
	// by key, in the shape of the multi-round-trip protocol (SEP-2322):
	// {"<key>": {"method": "elicitation/create", "params": {…}}, …}.
	InputRequests json.RawMessage `json:"inputRequests,omitempty"`
	// Result is the result of a completed task: for a tools/call, the
	// CallToolResult, which may have isError true.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the JSON-RPC error object {code, message, data?} of a failed
	// task.
	Error json.RawMessage `json:"error,omitempty"`
}

// taskIDParams are the params of tasks/get and tasks/cancel.
type taskIDParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// updateTaskParams are the params of tasks/update.
type updateTaskParams struct {
	mcp.ParamsBase
	TaskID         string          `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses"`
}

// taskAck is the empty acknowledgement of tasks/update and tasks/cancel.
type taskAck struct {
	mcp.ResultBase
}

// NewClient is [mcp.NewClient] for a client that takes tasks: it declares
// the extension [TasksExtension] in the client's capabilities, which the SDK
// sends in the _meta of every request of protocol 2026-07-28 and later
// (params._meta["io.modelcontextprotocol/clientCapabilities"].extensions),
// and registers tasks/get, tasks/update and tasks/cancel, which [GetTask],
// [UpdateTask], [CancelTask] and a polling [Call] send. opts is not
// modified; nil is the SDK's defaults.
//
// A server answers a tools/call of such a client with a task when it
// chooses to, which the SDK cannot decode: connect the client through
// [Transport] (and over Streamable HTTP with [HTTPClient]) so that the task
// reaches [Call].
func NewClient(impl *mcp.Implementation, opts *mcp.ClientOptions) *mcp.Client {
	c := mcp.NewClient(impl, declareTasks(opts))
	must(mcp.AddSendingCustomMethod[*taskIDParams, *DetailedTask](c, methodGetTask))
	must(mcp.AddSendingCustomMethod[*updateTaskParams, *taskAck](c, methodUpdateTask))
	must(mcp.AddSendingCustomMethod[*taskIDParams, *taskAck](c, methodCancelTask))
	return c
}

// must panics on an error that only a change of the SDK could cause: the
// registration of a method that is not one of its standard ones.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// declareTasks returns a copy of opts whose capabilities declare the tasks
// extension. Without capabilities of their own, they are the SDK's default
// ones (roots, with listChanged), which giving any replaces.
func declareTasks(opts *mcp.ClientOptions) *mcp.ClientOptions {
	var o mcp.ClientOptions
	if opts != nil {
		o = *opts
	}
	var caps mcp.ClientCapabilities
	if o.Capabilities != nil {
		caps = *o.Capabilities
		caps.Extensions = maps.Clone(caps.Extensions)
	} else {
		//lint:ignore SA1019 roots is in the SDK's default capabilities, which giving any replaces: kept so that declaring tasks changes nothing else.
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	caps.AddExtension(TasksExtension, nil)
	o.Capabilities = &caps
	return &o
}

// GetTask asks the server where the task id stands (tasks/get). Its error
// is an [*mcperr.Error] as [FromRPC] gives it: an unknown or expired id is
// the server's InvalidParams.
func GetTask(ctx context.Context, cs *mcp.ClientSession, id string) (*DetailedTask, error) {
	res, err := mcp.CallCustomMethod[*taskIDParams, *DetailedTask](ctx, cs, methodGetTask, &taskIDParams{TaskID: id})
	if err != nil {
		return nil, taskError(methodGetTask, err)
	}
	return res, nil
}

// UpdateTask gives the server the answers to questions of the
// input_required task id (tasks/update): responses maps each key of the
// task's inputRequests to the answer, as [mcp.InputResponseMap] encodes
// it. Its error is as [GetTask]'s.
func UpdateTask(ctx context.Context, cs *mcp.ClientSession, id string, responses json.RawMessage) error {
	_, err := mcp.CallCustomMethod[*updateTaskParams, *taskAck](ctx, cs, methodUpdateTask,
		&updateTaskParams{TaskID: id, InputResponses: responses})
	return taskError(methodUpdateTask, err)
}

// CancelTask asks the server to cancel the task id (tasks/cancel). The
// server acknowledges at once; the task ends cancelled, unless it ended
// otherwise first. Its error is as [GetTask]'s.
func CancelTask(ctx context.Context, cs *mcp.ClientSession, id string) error {
	_, err := mcp.CallCustomMethod[*taskIDParams, *taskAck](ctx, cs, methodCancelTask, &taskIDParams{TaskID: id})
	return taskError(methodCancelTask, err)
}

// taskError is err of a tasks/* call as [FromRPC] gives it, but for the
// SDK's refusal of a method its client did not register, which is the
// caller's mistake, said as such.
func taskError(method string, err error) error {
	if err == nil {
		return nil
	}
	if strings.Contains(err.Error(), "AddSendingCustomMethod") {
		return mcperr.InvalidRequest("This session's client cannot send "+method+": create it with mcpclient.NewClient.",
			mcperr.WithCause(err))
	}
	return FromRPC(err)
}

// TaskOf returns the task a server created in place of the result res, as
// a connection wrapped by [Transport] keeps it in res's
// _meta[[TaskMetaKey]]; nil when res is a result (or nil).
func TaskOf(res *mcp.CallToolResult) *Task {
	if res == nil {
		return nil
	}
	v, ok := res.Meta[TaskMetaKey]
	if !ok {
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var t Task
	if json.Unmarshal(raw, &t) != nil || t.TaskID == "" {
		return nil
	}
	return &t
}
