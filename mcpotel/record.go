package mcpotel

import (
	"fmt"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

// End records everything about the call, once: the framework's instruments,
// mcp.errors.classified for a failure, the semantic conventions' operation
// duration, and the span's attributes, status and exception event. Later
// calls do nothing, as does End on a nil *observedCall.
//
// A declared severity shows in mcp.errors.classified only: the span status
// and the per-kind series of a failure are the same whether or not its
// severity is declared, because the call failed all the same.
func (c *observedCall) End(o mcpcore.CallOutcome) {
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
func (c *observedCall) recordMetrics(in *instruments, o mcpcore.CallOutcome, elapsed time.Duration) {
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
			cl = append(cl, keySeverity.String(string(o.Severity)))
		}
		in.classified.Add(ctx, 1, metric.WithAttributes(cl...))
		attrs = append(attrs, keyErrorType.String(codeName), keyStatusCode.String(strconv.Itoa(int(o.Code))))
	}
	in.operation.Record(ctx, elapsed.Seconds(), mcpconv.MethodNameAttr(methods[c.kind]), attrs...)
	in.active.Add(ctx, -1)
}

// endSpan sets the span's outcome and ends it. A success leaves the status
// unset, as instrumentation should (only an application may claim Ok).
func (c *observedCall) endSpan(o mcpcore.CallOutcome) {
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
