package mcpcore

import (
	"context"
	"log/slog"
)

// From the moment a call becomes a task, its records carry the task's id
// (taskId) beside the request's, as the request's attributes do: the
// failure's one record at the task's end, the completion record, and the
// handler's own. The id is never among the attributes that tell repeated
// failures apart (see logFailure): the same failure of many tasks is
// collapsed as that of many calls is.

// recordAttrs are the request's attributes for a record written now: with
// the task's id once the call is a task.
func (c *Context) recordAttrs() []slog.Attr {
	attrs := c.logAttrs()
	if id := c.TaskID(); id != "" {
		attrs = append(attrs[:len(attrs):len(attrs)], slog.String("taskId", id))
	}
	return attrs
}

// taskIDHandler adds the task's id to the records of the request's logger
// once the call is a task; the logger is built on first use, often before.
type taskIDHandler struct {
	slog.Handler
	task *taskCall
}

func (h taskIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := h.task.id.Load(); id != nil {
		r = r.Clone()
		r.AddAttrs(slog.String("taskId", *id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h taskIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return taskIDHandler{h.Handler.WithAttrs(as), h.task}
}

// WithGroup keeps the id out of the group: given now when the call is a
// task already, and left out of the group's records otherwise.
func (h taskIDHandler) WithGroup(name string) slog.Handler {
	if id := h.task.id.Load(); id != nil {
		return h.Handler.WithAttrs([]slog.Attr{slog.String("taskId", *id)}).WithGroup(name)
	}
	return h.Handler.WithGroup(name)
}
