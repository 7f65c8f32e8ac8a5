package otelsdk

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// maskSpans is an exporter New builds, wrapped so that the secrets the
// process keeps (redact.Keep) leave in no span it exports: the server's
// own, and those a service starts under them (an HTTP client's url.full
// with the key in its query, an error it records with its upstream's
// text). Its name, attributes, status, events and links are masked
// (redact.Mask); a span with nothing to mask goes out as it is.
type maskSpans struct{ sdktrace.SpanExporter }

// ExportSpans masks spans and exports them.
func (m maskSpans) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if !redact.Masking() {
		return m.SpanExporter.ExportSpans(ctx, spans)
	}
	var out []sdktrace.ReadOnlySpan
	for i, s := range spans {
		masked, ok := maskSpan(s)
		if !ok {
			continue
		}
		if out == nil {
			out = append([]sdktrace.ReadOnlySpan(nil), spans...)
		}
		out[i] = masked
	}
	if out == nil {
		out = spans
	}
	return m.SpanExporter.ExportSpans(ctx, out)
}

// maskSpan returns s masked, and false when it had nothing to mask.
func maskSpan(s sdktrace.ReadOnlySpan) (sdktrace.ReadOnlySpan, bool) {
	stub := tracetest.SpanStubFromReadOnlySpan(s)
	changed := false
	text := func(v string) string {
		m := redact.Mask(v)
		changed = changed || m != v
		return m
	}
	attrs := func(kvs []attribute.KeyValue) []attribute.KeyValue {
		out, c := maskAttrs(kvs)
		changed = changed || c
		return out
	}
	stub.Name = text(stub.Name)
	stub.Status.Description = text(stub.Status.Description)
	stub.Attributes = attrs(stub.Attributes)
	for i := range stub.Events {
		stub.Events[i].Name = text(stub.Events[i].Name)
		stub.Events[i].Attributes = attrs(stub.Events[i].Attributes)
	}
	for i := range stub.Links {
		stub.Links[i].Attributes = attrs(stub.Links[i].Attributes)
	}
	if !changed {
		return s, false
	}
	return stub.Snapshot(), true
}

// maskAttrs returns kvs with their keys and string values masked, and
// whether anything changed; kvs itself when nothing did.
func maskAttrs(kvs []attribute.KeyValue) ([]attribute.KeyValue, bool) {
	var out []attribute.KeyValue
	for i, kv := range kvs {
		m := kv
		m.Key = attribute.Key(redact.Mask(string(kv.Key)))
		changed := m.Key != kv.Key
		switch kv.Value.Type() {
		case attribute.STRING:
			if v := redact.Mask(kv.Value.AsString()); v != kv.Value.AsString() {
				m.Value, changed = attribute.StringValue(v), true
			}
		case attribute.STRINGSLICE:
			vs := kv.Value.AsStringSlice()
			for j, v := range vs {
				if masked := redact.Mask(v); masked != v {
					vs[j], changed = masked, true
				}
			}
			if changed {
				m.Value = attribute.StringSliceValue(vs)
			}
		}
		if !changed {
			continue
		}
		if out == nil {
			out = append([]attribute.KeyValue(nil), kvs...)
		}
		out[i] = m
	}
	if out == nil {
		return kvs, false
	}
	return out, true
}
