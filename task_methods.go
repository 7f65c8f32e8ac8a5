package mcpcore

// The methods of the extension io.modelcontextprotocol/tasks: tasks/get,
// tasks/update and tasks/cancel, registered when a tool has a Task mode.

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// taskRequestKey finds, in a tasks/* handler's context, the request
// receive put there.
type taskRequestKey struct{}

// runsTasks reports whether d is a tool with a Task mode.
func runsTasks(d Definition) bool {
	t, ok := d.(interface{ taskMode() TaskMode })
	return ok && t.taskMode() != TaskNever
}

func (t Tool[In, Out]) taskMode() TaskMode { return t.Task.Mode }

// taskMethodNames are the methods addTaskMethods registers.
var taskMethodNames = map[string]bool{"tasks/get": true, "tasks/update": true, "tasks/cancel": true, "tasks/result": true, "tasks/list": true}

func (s *Server) addTaskMethods() {
	// Each name is the extension's, none the SDK's own: no error.
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/get", s.tasksGet)
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/update", s.tasksUpdate)
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/cancel", s.tasksCancel)
	// MCP 2025-11-25's alone, answered by legacyTasks for its sessions.
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/result", s.tasksOfLegacy)
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/list", s.tasksListOfLegacy)
}

// taskCaller checks that a tasks/* request may be served, and returns the
// principal it is made for. Under a protocol version before 2026-07-28
// the extension does not apply, and the methods do not exist; a request
// that did not declare it is refused with MissingClientCapability; an id
// the server could not have issued is unknown.
func (s *Server) taskCaller(ctx context.Context, ss *mcp.ServerSession, method string, meta map[string]any, id string) (string, error) {
	version, _ := meta[mcp.MetaKeyProtocolVersion].(string)
	if version == "" && ss != nil {
		if p := ss.InitializeParams(); p != nil {
			version = p.ProtocolVersion
		}
	}
	if version < mrtrVersion {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found: " + method + "."}
	}
	if !declaresTasks(version, meta) {
		return "", tasksMethodRefusal(method)
	}
	if !wellFormedTaskID(id) {
		return "", errUnknownTask
	}
	var principal string
	if req, _ := ctx.Value(taskRequestKey{}).(mcp.Request); req != nil {
		principal = requestPrincipal(req)
	}
	return principal, nil
}

// storeFailure is a tasks/* answer for the store's own error: unknown for
// a task it does not find, else ServiceUnavailable, retryable.
func storeFailure(err error) error {
	if errchain.Is(err, fleet.ErrTaskNotFound) {
		return errUnknownTask
	}
	f, _ := newWireError(mcperr.ServiceUnavailable("The task store did not answer; retry.",
		mcperr.WithData(map[string]any{"retryable": true})))
	return f.rpcError()
}

// storeContext bounds one operation of the store for a tasks/* request.
func storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, taskStoreTimeout)
}

func (s *Server) tasksGet(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*getTaskResult, error) {
	if p == nil {
		p = &taskParams{}
	}
	principal, err := s.taskCaller(ctx, ss, "tasks/get", p.Meta, p.TaskID)
	if err != nil {
		return nil, err
	}
	t, err := s.readTask(ctx, p.TaskID, principal)
	if err != nil {
		return nil, err
	}
	return detailedTask(t), nil
}

// readTask reads task id for principal, as every wire's read does: from
// this replica's copy when it runs the task and the store is away or lags;
// ended failed when the store says its replica is gone (see abandon).
func (s *Server) readTask(ctx context.Context, id, principal string) (fleet.Task, error) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	t, err := s.taskStore.Get(ctx, id, principal)
	if own, ok := s.ownerView(id, principal, t, err); ok {
		return own, nil
	}
	if err != nil {
		return fleet.Task{}, storeFailure(err)
	}
	if t.OwnerGone && !t.Status.Terminal() {
		t = s.abandon(ctx, t)
	}
	return t, nil
}

// abandon ends task t, whose replica the store says is gone, failed with
// ServiceUnavailable, retryable, so that the client calls the tool again
// rather than poll a task nobody runs. When the owner ended it meanwhile
// (it was only paused), or the store fails, t is answered as it stands.
func (s *Server) abandon(ctx context.Context, t fleet.Task) fleet.Task {
	f, _ := newWireError(errTaskOwnerGone.err)
	ended, err := s.taskStore.Abandon(ctx, t.ID, t.Owner, f.object, f.message)
	switch {
	case err == nil:
		s.logger.LogAttrs(ctx, slog.LevelWarn, "mcpcore: a task ended failed: the replica running it stopped",
			slog.String("taskId", t.ID), slog.String("tool", t.Tool), slog.String("owner", t.Owner))
		return ended
	case errchain.Is(err, fleet.ErrTaskEnded) && ended.ID != "":
		return ended
	}
	return t
}

// tasksUpdate takes answers to a task's questions: those to questions not
// outstanding are ignored, as the extension asks; the ack comes either way.
func (s *Server) tasksUpdate(ctx context.Context, ss *mcp.ServerSession, p *taskUpdateParams) (*taskAck, error) {
	if p == nil {
		p = &taskUpdateParams{}
	}
	principal, err := s.taskCaller(ctx, ss, "tasks/update", p.Meta, p.TaskID)
	if err != nil {
		return nil, err
	}
	ctx, cancel := storeContext(ctx)
	defer cancel()
	err = s.taskStore.Answer(ctx, p.TaskID, principal, p.InputResponses)
	if shadowServes(err) && s.answerHere(p.TaskID, principal, p.InputResponses) {
		err = nil // answered in the shadow of the task running here
	}
	if err != nil && !errchain.Is(err, fleet.ErrTaskEnded) {
		return nil, storeFailure(err)
	}
	if err == nil {
		// The runner of a task of this process hears of its answers at
		// once; another replica's, through the store's Watch.
		s.taskRunner.wake(p.TaskID)
	}
	return newTaskAck(), nil
}

// tasksCancel cancels a task: set cancelled in the store before the ack,
// so that cancellation wins over a late result, then its handler is
// cancelled. A task already ended gets the same ack, unchanged.
func (s *Server) tasksCancel(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskAck, error) {
	if p == nil {
		p = &taskParams{}
	}
	principal, err := s.taskCaller(ctx, ss, "tasks/cancel", p.Meta, p.TaskID)
	if err != nil {
		return nil, err
	}
	if err := s.cancelTask(ctx, p.TaskID, principal); err != nil {
		return nil, err
	}
	return newTaskAck(), nil
}

// cancelTask ends task id of principal cancelled, unless it has ended
// already, as every wire's cancel does: in the store, else in this
// replica's copy when it runs the task; and cancels the handler when it
// runs here.
func (s *Server) cancelTask(ctx context.Context, id, principal string) error {
	sctx, cancel := storeContext(ctx)
	defer cancel()
	const msg = "Cancelled by the client."
	err := s.taskStore.Cancel(sctx, id, principal, msg)
	if shadowServes(err) && s.cancelHere(id, principal, msg) {
		err = nil // cancelled in the shadow of the task running here
	}
	if err != nil && !errchain.Is(err, fleet.ErrTaskEnded) {
		return storeFailure(err)
	}
	if t, ok := s.taskRunner.lookup(id); ok && t.principal == principal {
		t.cancel(errTaskCancelled)
	}
	return nil
}
