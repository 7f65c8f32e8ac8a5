package mcpcore

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// legacyTasks answers req as next would, but for what the experimental
// task utility adds for a session of MCP 2025-11-25: tasks/get,
// tasks/result, tasks/list and tasks/cancel; a tools/call of a tool that
// runs only as a task without params.task, or with it of a tool that never
// does (-32601, as the utility says); the CreateTaskResult of a call that
// became a task, nested as the utility has it. Any other request, and
// every request of another version, goes to next as it is.
func (s *Server) legacyTasks(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	if s.taskStore == nil || method != "tools/call" && !isTasksMethod(method) || !legacySession(req) {
		return next(ctx, method, req)
	}
	switch method {
	case "tools/call":
		return s.legacyCall(ctx, next, req)
	case "tasks/get":
		return s.legacyGet(ctx, req)
	case "tasks/result":
		return s.legacyResult(ctx, req)
	case "tasks/list":
		return s.legacyList(ctx, req)
	case "tasks/cancel":
		return s.legacyCancel(ctx, req)
	}
	return nil, methodNotFound(method)
}

// methodNotFound is -32601, which the SDK answers in its own words
// (`method not found: "<method>"`) whatever the message.
func methodNotFound(method string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: " + method + "."}
}

// legacyCall refuses a call whose params.task does not fit the tool's
// Task mode, and nests the CreateTaskResult of one that became a task.
func (s *Server) legacyCall(ctx context.Context, next mcp.MethodHandler, req mcp.Request) (mcp.Result, error) {
	p, _ := req.GetParams().(*mcp.CallToolParamsRaw)
	if p != nil {
		_, asked := p.Meta[rpcguard.TaskParamsMeta]
		switch support := s.listedTaskSupport(p.Name); {
		case asked && support == "" && s.toolListed(p.Name), !asked && support == TaskRequired.String():
			return nil, methodNotFound("tools/call")
		}
	}
	res, err := next(ctx, "tools/call", req)
	if err != nil {
		return nil, err // res may be a typed nil
	}
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.Meta != nil {
		if created, ok := r.Meta[taskSlotKey].(*createTaskResult); ok {
			return legacyCreated(created), nil
		}
	}
	return res, err
}

// listedTaskSupport is the taskSupport of the tool named, "" for none.
func (s *Server) listedTaskSupport(name string) string {
	for _, l := range s.listed {
		if l.tool != nil && l.tool.Name == name {
			return taskSupportOf(l.tool)
		}
	}
	return ""
}

func (s *Server) toolListed(name string) bool {
	for _, l := range s.listed {
		if l.tool != nil && l.tool.Name == name {
			return true
		}
	}
	return false
}

// legacyCaller is the principal of a tasks/* request, and its task id
// (an id the server could not have issued is unknown, unlooked-up).
func legacyCaller(req mcp.Request) (principal, id string, err error) {
	if p, ok := req.GetParams().(*taskParams); ok && p != nil {
		id = p.TaskID
	}
	principal = requestPrincipal(req)
	if !wellFormedTaskID(id) {
		return "", "", errUnknownTask
	}
	return principal, id, nil
}

// legacyRead reads the task a tasks/* request names, for its caller.
func (s *Server) legacyRead(ctx context.Context, req mcp.Request) (t fleet.Task, principal string, err error) {
	principal, id, err := legacyCaller(req)
	if err != nil {
		return fleet.Task{}, "", err
	}
	t, err = s.readTask(ctx, id, principal)
	return t, principal, err
}

func (s *Server) legacyGet(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	t, _, err := s.legacyRead(ctx, req)
	if err != nil {
		return nil, err
	}
	return &legacyTaskResult{legacyTask: legacyTaskOf(t)}, nil
}

// legacyResult waits until the task ends, then answers what the call would
// have: its CallToolResult (with _meta's related-task), or its JSON-RPC
// error. It re-reads the task, soon at first and then at its poll
// interval, until the client gives up the request.
func (s *Server) legacyResult(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	principal, id, err := legacyCaller(req)
	if err != nil {
		return nil, err
	}
	wait := 20 * time.Millisecond
	for {
		t, err := s.readTask(ctx, id, principal)
		if err != nil {
			return nil, err
		}
		switch t.Status {
		case fleet.TaskCompleted:
			raw, err := withRelatedTask(t.Outcome, t.ID)
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "The result of the task could not be read."}
			}
			return &payloadResult{raw: raw}, nil
		case fleet.TaskFailed:
			return nil, storedError(t.Outcome)
		case fleet.TaskCancelled:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "The task was cancelled; it has no result."}
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
		wait = min(2*wait, max(t.PollInterval, 20*time.Millisecond))
	}
}

// legacyList lists the caller's tasks. Without authentication there is no
// caller to list for: every task would be every caller's.
func (s *Server) legacyList(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	lister, ok := s.taskStore.(fleet.TaskLister)
	principal := requestPrincipal(req)
	if !ok || principal == "" {
		return nil, methodNotFound("tasks/list")
	}
	var cursor string
	if p, ok := req.GetParams().(*legacyListParams); ok && p != nil {
		cursor = p.Cursor
	}
	sctx, cancel := storeContext(ctx)
	defer cancel()
	tasks, next, err := lister.List(sctx, principal, cursor, legacyListPage)
	if errchain.Is(err, fleet.ErrBadCursor) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: the cursor is not one tasks/list gave."}
	}
	if err != nil {
		return nil, storeFailure(err)
	}
	out := &legacyListResult{Tasks: make([]legacyTask, len(tasks)), NextCursor: next}
	for i, t := range tasks {
		out.Tasks[i] = legacyTaskOf(t)
	}
	return out, nil
}

// legacyCancel cancels a task that has not ended, in the store before the
// answer (so that the cancel wins over a late result), then its handler;
// it answers the task, cancelled. An ended one is refused with -32602.
func (s *Server) legacyCancel(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	t, principal, err := s.legacyRead(ctx, req)
	if err != nil {
		return nil, err
	}
	id := t.ID
	if ended := t.Status.Terminal(); !ended {
		if err := s.cancelTask(ctx, id, principal); err != nil {
			return nil, err
		}
		if t, err = s.readTask(ctx, id, principal); err != nil {
			return nil, err
		}
		if t.Status == fleet.TaskCancelled {
			return &legacyTaskResult{legacyTask: legacyTaskOf(t)}, nil
		}
	}
	return nil, legacyTerminal(legacyTaskOf(t).Status)
}

// tasksOfLegacy answers tasks/result outside a session of MCP 2025-11-25
// (legacyTasks answers it inside): the extension has no such method.
func (s *Server) tasksOfLegacy(context.Context, *mcp.ServerSession, *taskParams) (*taskAck, error) {
	return nil, methodNotFound("tasks/result")
}

// tasksListOfLegacy answers tasks/list outside a session of MCP
// 2025-11-25, as tasksOfLegacy does tasks/result.
func (s *Server) tasksListOfLegacy(context.Context, *mcp.ServerSession, *legacyListParams) (*taskAck, error) {
	return nil, methodNotFound("tasks/list")
}
