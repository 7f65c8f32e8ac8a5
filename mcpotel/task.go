package mcpotel

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore"
)

// BecameTask is told that the call became task id, as its request is
// answered: the request's span ends there, carrying mcp.task.id, and the
// task's span starts, a child of it and linked to it, in which End records
// the task's final outcome. The metrics wait for End: a call is counted
// once, when the task ends, never at this boundary.
//
// The task's span is a child, so that it stays in the client's trace,
// beside the call's log records (their traceId and spanId are the
// request's); the link says the same to backends that draw spans that
// outlive their parent apart.
func (c *observedCall) BecameTask(id string) {
	if c == nil || c.t == nil || !c.t.tracing {
		return
	}
	req := c.span
	task := keyTaskID.String(id)
	req.SetAttributes(task)
	req.End()
	attrs := make([]attribute.KeyValue, 0, 10)
	attrs = append(attrs, keyMethod.String(methods[c.kind]))
	attrs = c.operationAttrs(attrs, false)
	if c.info.SessionID != "" {
		attrs = append(attrs, keySessionID.String(c.info.SessionID))
	}
	attrs = append(attrs, task)
	c.ctx, c.span = c.t.tracer.Start(c.ctx, executeTool+" "+c.info.Name,
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...),
		trace.WithLinks(trace.Link{SpanContext: req.SpanContext()}))
}

var _ mcpcore.TaskObservation = (*observedCall)(nil)
