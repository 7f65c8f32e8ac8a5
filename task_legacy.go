package mcpcore

// MCP 2025-11-25's experimental task utility, for the clients that speak
// it (the TypeScript SDK 1.32's task API): the same task store behind its
// wire, under that protocol version only. A tools/call with params.task
// becomes a task at once; tasks/get, tasks/result (blocking), tasks/list
// and tasks/cancel read and end it; tools/list says which tools may run as
// tasks, and initialize declares capabilities.tasks. Where the extension
// of 2026-07-28 and this utility differ, the store keeps one truth and
// this file renders it: a tool's declared failure is completed with an
// isError result in the store, and failed here.

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// legacyTasksVersion is the one protocol version whose sessions get the
// experimental task utility.
const legacyTasksVersion = "2025-11-25"

// relatedTaskKey is the _meta key that ties a message to its task.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// legacyListPage is the most tasks one tasks/list page holds.
const legacyListPage = 100

// legacySession reports whether req is of a session that speaks MCP
// 2025-11-25, whose tasks are the experimental utility's.
func legacySession(req mcp.Request) bool {
	// Params the client left out are a typed nil, whose GetMeta panics.
	if m := req.GetParams(); m != nil && !reflect.ValueOf(m).IsNil() {
		if v, ok := m.GetMeta()[mcp.MetaKeyProtocolVersion].(string); ok {
			return v == legacyTasksVersion
		}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion == legacyTasksVersion
}

// legacyTaskCall reports whether a tools/call of protocol version version
// with _meta meta asked to run as a task of the experimental utility
// (params.task, lifted into _meta; see rpcguard.LiftTask), and applies
// its ttl to support: the one the client asked for, within the tool's.
// Such a call always answers with a task, as a TaskRequired tool's does.
func legacyTaskCall(version string, meta map[string]any, support *TaskSupport) bool {
	if version != legacyTasksVersion {
		return false
	}
	task, ok := meta[rpcguard.TaskParamsMeta]
	if !ok {
		return false
	}
	support.Mode = TaskRequired
	if m, ok := task.(map[string]any); ok {
		if ms, ok := m["ttl"].(float64); ok && ms >= 1 {
			support.TTL = min(support.TTL, time.Duration(ms)*time.Millisecond)
		}
	}
	return true
}

// legacyTask is a Task on the utility's wire.
type legacyTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           int64  `json:"ttl"`
	PollInterval  int64  `json:"pollInterval"`
}

// toolOutcome is what the rendering reads of a completed task's result.
type toolOutcome struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// legacyTaskOf renders t: a completed task whose result is an error
// result is failed, its statusMessage the result's first text.
func legacyTaskOf(t fleet.Task) legacyTask {
	status, msg := string(t.Status), t.Message
	if t.Status == fleet.TaskCompleted {
		var out toolOutcome
		if json.Unmarshal(t.Outcome, &out) == nil && out.IsError {
			status = string(fleet.TaskFailed)
			for _, c := range out.Content {
				if c.Type == "text" && msg == "" {
					msg = c.Text
				}
			}
		}
	}
	return legacyTask{TaskID: t.ID, Status: status, StatusMessage: msg,
		CreatedAt: taskTime(t.Created), LastUpdatedAt: taskTime(t.Updated),
		TTL: max(t.TTL.Milliseconds(), 1), PollInterval: max(t.PollInterval.Milliseconds(), 1)}
}

// legacyCreateTaskResult answers a tools/call that became a task.
type legacyCreateTaskResult struct {
	mcp.ResultBase
	Task legacyTask `json:"task"`
}

// legacyCreated is the utility's CreateTaskResult of the task created as
// c: working, as the utility has every task begin, even one whose handler
// already ended (a poll then finds it ended).
func legacyCreated(c *createTaskResult) *legacyCreateTaskResult {
	f := c.taskFields
	return &legacyCreateTaskResult{Task: legacyTask{TaskID: f.TaskID, Status: string(fleet.TaskWorking),
		CreatedAt: f.CreatedAt, LastUpdatedAt: f.CreatedAt, TTL: f.TTLMs, PollInterval: f.PollIntervalMs}}
}

// legacyTaskResult answers tasks/get and tasks/cancel: the task.
type legacyTaskResult struct {
	mcp.ResultBase
	legacyTask
}

// legacyListResult answers tasks/list.
type legacyListResult struct {
	mcp.ResultBase
	Tasks      []legacyTask `json:"tasks"`
	NextCursor string       `json:"nextCursor,omitempty"`
}

// legacyListParams are the params of tasks/list.
type legacyListParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// payloadResult answers tasks/result with the task's CallToolResult as
// the store holds it, _meta's related-task added.
type payloadResult struct {
	mcp.ResultBase
	raw json.RawMessage
}

func (r *payloadResult) MarshalJSON() ([]byte, error) { return r.raw, nil }

// withRelatedTask returns result, a JSON object, with
// _meta["io.modelcontextprotocol/related-task"] = {"taskId": id}, the rest
// as it is.
func withRelatedTask(result json.RawMessage, id string) (json.RawMessage, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(result, &members); err != nil {
		return nil, err
	}
	meta := map[string]json.RawMessage{}
	if m := members["_meta"]; len(m) > 0 {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, err
		}
	}
	var err error
	if meta[relatedTaskKey], err = json.Marshal(map[string]string{"taskId": id}); err != nil {
		return nil, err
	}
	if members["_meta"], err = json.Marshal(meta); err != nil {
		return nil, err
	}
	return json.Marshal(members)
}

// storedError is the JSON-RPC error a failed task's outcome holds.
func storedError(outcome json.RawMessage) error {
	var e jsonrpc.Error
	if json.Unmarshal(outcome, &e) != nil || e.Code == 0 {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "The task failed."}
	}
	return &e
}

// legacyCapabilities are a server's capabilities with the utility's tasks.
type legacyCapabilities struct {
	*mcp.ServerCapabilities
	Tasks legacyTasksCapability `json:"tasks"`
}

// legacyTasksCapability declares tasks/cancel and task-augmented
// tools/call, and tasks/list only where callers are authenticated: without
// authentication, listing would show every caller every task.
type legacyTasksCapability struct {
	List     *struct{} `json:"list,omitempty"`
	Cancel   struct{}  `json:"cancel"`
	Requests struct {
		Tools struct {
			Call struct{} `json:"call"`
		} `json:"tools"`
	} `json:"requests"`
}

// legacyInitializeResult is an InitializeResult with legacyCapabilities.
type legacyInitializeResult struct {
	*mcp.InitializeResult
	Capabilities legacyCapabilities `json:"capabilities"`
}

// legacyTool is a tool with the execution.taskSupport of its Task mode.
type legacyTool struct {
	*mcp.Tool
	Execution *legacyExecution `json:"execution,omitempty"`
}

type legacyExecution struct {
	TaskSupport string `json:"taskSupport"`
}

// legacyListToolsResult is a ListToolsResult of legacyTools.
type legacyListToolsResult struct {
	*mcp.ListToolsResult
	Tools []legacyTool `json:"tools"`
}

// taskSupportOf is the utility's taskSupport of a listed tool: from the
// mode tools/list publishes under _meta["mcpcore/task"]; "" for a tool
// without one (forbidden, the default).
func taskSupportOf(t *mcp.Tool) string {
	switch m, _ := t.Meta[taskMetaKey].(string); m {
	case TaskOptional.String(), TaskRequired.String():
		return m
	}
	return ""
}

// legacyListing is res, the answer to method, as a session of the utility
// reads it: initialize declares capabilities.tasks, tools/list each
// tool's execution.taskSupport. Any other answer is res.
func (s *Server) legacyListing(method string, req mcp.Request, res mcp.Result) mcp.Result {
	if s.taskStore == nil {
		return res
	}
	switch r := res.(type) {
	case *mcp.InitializeResult:
		if method != "initialize" || r.ProtocolVersion != legacyTasksVersion {
			return res
		}
		out := &legacyInitializeResult{InitializeResult: r, Capabilities: legacyCapabilities{ServerCapabilities: r.Capabilities}}
		if out.Capabilities.ServerCapabilities == nil {
			out.Capabilities.ServerCapabilities = &mcp.ServerCapabilities{}
		}
		if s.auth != nil {
			out.Capabilities.Tasks.List = &struct{}{}
		}
		return out
	case *mcp.ListToolsResult:
		if method != "tools/list" || !legacySession(req) {
			return res
		}
		out := &legacyListToolsResult{ListToolsResult: r, Tools: make([]legacyTool, len(r.Tools))}
		for i, t := range r.Tools {
			out.Tools[i] = legacyTool{Tool: t}
			if ts := taskSupportOf(t); ts != "" {
				out.Tools[i].Execution = &legacyExecution{TaskSupport: ts}
			}
		}
		return out
	}
	return res
}

// legacyTerminal is the -32602 of a tasks/cancel of an ended task.
func legacyTerminal(status string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: "Cannot cancel task: already in terminal status '" + strings.ReplaceAll(status, "'", "") + "'."}
}
