package mcpcore

// The wire of the extension io.modelcontextprotocol/tasks (SEP-2663): its
// negotiation, its results and its refusals. The SDK knows none of these
// types, so each sets its resultType itself.

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// tasksExtension is the extension's name, under which a client declares
// it in a request's _meta and a server advertises it.
const tasksExtension = "io.modelcontextprotocol/tasks"

// taskMetaKey publishes a tool's TaskMode in tools/list.
const taskMetaKey = metaPrefix + "task"

// declaresTasks reports whether a request may be answered with a task: it
// speaks MCP 2026-07-28 or later, and its own _meta declares the extension
// among the client's capabilities. A declaration made when a session
// opened does not count ("regardless of prior declarations").
func declaresTasks(version string, meta map[string]any) bool {
	if version < mrtrVersion {
		return false
	}
	caps, ok := meta[mcp.MetaKeyClientCapabilities]
	if !ok {
		return false
	}
	if m, ok := caps.(map[string]any); ok {
		ext, _ := m["extensions"].(map[string]any)
		_, ok := ext[tasksExtension]
		return ok
	}
	// Built in process rather than decoded: through JSON, once.
	var decoded struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	b, err := json.Marshal(caps)
	if err != nil || json.Unmarshal(b, &decoded) != nil {
		return false
	}
	_, ok = decoded.Extensions[tasksExtension]
	return ok
}

// taskTime is a task's timestamp on the wire: ISO 8601, UTC, milliseconds.
func taskTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// taskFields are the fields of a Task on the wire.
type taskFields struct {
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	CreatedAt      string `json:"createdAt"`
	LastUpdatedAt  string `json:"lastUpdatedAt"`
	TTLMs          int64  `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs"`
}

func fieldsOf(t fleet.Task) taskFields {
	return taskFields{TaskID: t.ID, Status: string(t.Status), StatusMessage: t.Message,
		CreatedAt: taskTime(t.Created), LastUpdatedAt: taskTime(t.Updated),
		TTLMs: max(t.TTL.Milliseconds(), 1), PollIntervalMs: max(t.PollInterval.Milliseconds(), 1)}
}

// createTaskResult answers a tools/call that became a task: flat, with
// resultType "task", and nothing of the outcome.
type createTaskResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	taskFields
}

// getTaskResult answers tasks/get: the task, with its questions, its
// result or its error inlined as its status has them.
type getTaskResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	taskFields
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result        json.RawMessage            `json:"result,omitempty"`
	Error         json.RawMessage            `json:"error,omitempty"`
}

func detailedTask(t fleet.Task) *getTaskResult {
	r := &getTaskResult{ResultType: "complete", taskFields: fieldsOf(t)}
	switch t.Status {
	case fleet.TaskInputRequired:
		r.InputRequests = t.Questions
	case fleet.TaskCompleted:
		r.Result = t.Outcome
	case fleet.TaskFailed:
		r.Error = t.Outcome
	}
	return r
}

// taskAck answers tasks/update and tasks/cancel: {"resultType":"complete"}.
type taskAck struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

func newTaskAck() *taskAck { return &taskAck{ResultType: "complete"} }

// taskParams are the params of tasks/get and tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// taskUpdateParams are the params of tasks/update. The answers stay
// encoded: the store keeps them as they came, and reads only their keys.
type taskUpdateParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// maxTaskIDBytes bounds an id a client sends: the server's ids are 26
// characters.
const maxTaskIDBytes = 64

// wellFormedTaskID reports whether id could be one the server issued
// (rand.Text's base32): any other is unknown without a look-up.
func wellFormedTaskID(id string) bool {
	if id == "" || len(id) > maxTaskIDBytes {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'A' && c <= 'Z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// errUnknownTask answers every tasks/* method about an id that is unknown,
// expired, malformed or another principal's, alike: existence does not
// leak, and the id is never echoed.
var errUnknownTask = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
	Message: "Unknown task: no task with this id is visible to this caller; it may have expired."}

// tasksCapability is the data of a refusal for want of the extension.
func tasksCapability() mcperr.Option {
	return mcperr.WithData(map[string]any{"requiredCapabilities": map[string]any{
		"extensions": map[string]any{tasksExtension: map[string]any{}}}})
}

// taskOnlyRefusal refuses a call of a TaskRequired tool whose request did
// not declare the extension, before its handler runs.
func taskOnlyRefusal(tool string) *mcperr.Error {
	return mcperr.New(mcperr.CodeMissingClientCapability,
		fmt.Sprintf("Tool %q runs only as a task, and this request did not declare the extension %s.", tool, tasksExtension),
		tasksCapability())
}

// tasksMethodRefusal refuses a tasks/* method whose request did not
// declare the extension.
func tasksMethodRefusal(method string) error {
	e := mcperr.New(mcperr.CodeMissingClientCapability,
		fmt.Sprintf("%s needs the client capability extensions[%q], which this request did not declare.", method, tasksExtension),
		tasksCapability())
	f, _ := newWireError(e)
	return f.rpcError()
}

// isTasksMethod reports whether method is one of the extension's.
func isTasksMethod(method string) bool { return strings.HasPrefix(method, "tasks/") }
