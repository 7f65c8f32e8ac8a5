package telemetry

import (
	"fmt"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Outcome is how a call ended, as the client was told.
type Outcome struct {
	// Failed is true when the client got a failure: an error result for a
	// tool, a JSON-RPC error for a resource or a prompt.
	Failed bool
	// Code is the failure's code; its name (Code.String) is error.type,
	// mcp.tool.error_category and the like.
	Code mcperr.Code
	// Message is the message the client got: the span's status
	// description and its exception event's message, with the secrets the
	// process keeps masked (redact.Mask). One text on every surface: the
	// client's, the log record's and the span's.
	Message string
	// Severity is the declared severity of a declared failure ("notice",
	// …), and "" for anything else, a declared failure without one
	// included. It becomes mcp.errors.classified's mcp.error.severity and
	// changes nothing else.
	Severity string
	// Cause is the original error, recorded as the span's exception event:
	// its type, with Message as the event's message (the original's own
	// text stays in the log record, for the operator). Nil records no
	// event.
	Cause error
	// OutputBytes is the size of a success's result, in bytes of JSON.
	OutputBytes int
	// Messages is the number of messages a prompt generated.
	Messages int
}

// End records everything about the call, once: the framework's instruments,
// mcp.errors.classified for a failure, the semantic conventions' operation
// duration, and the span's attributes, status and exception event. Later
// calls do nothing, as does End on a nil *Call.
//
// A declared severity shows in mcp.errors.classified only: the span status
// and the per-kind series of a failure are the same whether or not its
// severity is declared, because the call failed all the same.
func (c *Call) End(o Outcome) {
	if c == nil || c.t == nil {
		return
	}
	t := c.t
	c.t = nil
	elapsed := time.Since(c.start)
	if t.metering {
		c.recordMetrics(t.inst, o, elapsed)
	}
	if t.tracing {
		c.endSpan(o)
	}
}

// recordMetrics records the call's points. The context carries the span, so
// an exemplar links a point to its trace.
func (c *Call) recordMetrics(in *instruments, o Outcome, elapsed time.Duration) {
	ctx := c.ctx
	s := &surfaces[c.kind]
	ki := &in.kinds[c.kind]
	name := s.name.String(c.info.Name)
	outcome := metric.WithAttributeSet(attribute.NewSet(name, s.success.Bool(!o.Failed)))
	byName := metric.WithAttributeSet(attribute.NewSet(name))

	ki.calls.Add(ctx, 1, outcome)
	ki.duration.Record(ctx, float64(elapsed)/float64(time.Millisecond), outcome)
	if ki.inputBytes != nil {
		ki.inputBytes.Record(ctx, int64(c.info.InputBytes), byName)
	}
	if !o.Failed {
		if ki.outputBytes != nil {
			ki.outputBytes.Record(ctx, int64(o.OutputBytes), byName)
		}
		if ki.messageCount != nil {
			ki.messageCount.Record(ctx, int64(o.Messages), byName)
		}
	}

	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = c.operationAttrs(attrs, true)
	if o.Failed {
		codeName := o.Code.String()
		ki.errors.Add(ctx, 1, metric.WithAttributes(name, s.category.String(codeName)))
		cl := []attribute.KeyValue{
			keyClassifiedCode.String(strconv.Itoa(int(o.Code))),
			keyOperation.String(c.info.Kind + ":" + c.info.Name),
		}
		if o.Severity != "" {
			cl = append(cl, keySeverity.String(o.Severity))
		}
		in.classified.Add(ctx, 1, metric.WithAttributes(cl...))
		attrs = append(attrs, keyErrorType.String(codeName), keyStatusCode.String(strconv.Itoa(int(o.Code))))
	}
	in.operation.Record(ctx, elapsed.Seconds(), mcpconv.MethodNameAttr(methods[c.kind]), attrs...)
	in.active.Add(ctx, -1)
}

// endSpan sets the span's outcome and ends it. A success leaves the status
// unset, as instrumentation should (only an application may claim Ok).
func (c *Call) endSpan(o Outcome) {
	if o.Failed {
		msg := redact.Mask(o.Message)
		c.span.SetAttributes(keyErrorType.String(o.Code.String()), keyStatusCode.String(strconv.Itoa(int(o.Code))))
		c.span.SetStatus(codes.Error, msg)
		if o.Cause != nil {
			// Not span.RecordError: it records err.Error() as it is, which
			// may hold what the client was never sent.
			c.span.AddEvent("exception", trace.WithAttributes(
				keyExceptionType.String(fmt.Sprintf("%T", o.Cause)),
				keyExceptionMsg.String(msg),
			))
		}
	}
	c.span.End()
}
