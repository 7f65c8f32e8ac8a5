package mcpotel

import (
	"github.com/seed417024ea/mcpcore"

	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// harness is a Telemetry whose output the test reads: metrics through a
// ManualReader, spans through a SpanRecorder.
type harness struct {
	tel    *Observer
	reader *sdkmetric.ManualReader
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider
}

func newHarness(tb testing.TB) *harness {
	tb.Helper()
	h := &harness{reader: sdkmetric.NewManualReader(), spans: tracetest.NewSpanRecorder()}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	tel, err := New(Options{MeterProvider: mp, TracerProvider: h.tp})
	if err != nil {
		tb.Fatal(err)
	}
	h.tel = tel
	return h
}

// call runs one call through StartCall and End, as the server does.
func (h *harness) call(info mcpcore.CallInfo, o mcpcore.CallOutcome) {
	if _, c := h.tel.StartCall(context.Background(), info); c != nil {
		c.End(o)
	}
}

// collect reads every metric point.
func (h *harness) collect(tb testing.TB) metricdata.ResourceMetrics {
	tb.Helper()
	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(context.Background(), &rm); err != nil {
		tb.Fatal(err)
	}
	return rm
}

// points flattens what the reader holds into instrument → attributes →
// value, readable as a table: a sum is its value; a histogram is "n=<count>",
// plus " sum=<sum>" for the integer ones (sizes, counts), whose sum a test
// knows, unlike a duration's. Instruments with no point are left out.
func (h *harness) points(tb testing.TB) map[string]map[string]string {
	tb.Helper()
	out := map[string]map[string]string{}
	add := func(name string, set attribute.Set, v string) {
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		out[name][set.Encoded(attribute.DefaultEncoder())] = v
	}
	for _, sm := range h.collect(tb).ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					add(m.Name, p.Attributes, fmt.Sprint(p.Value))
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					add(m.Name, p.Attributes, fmt.Sprintf("n=%d sum=%d", p.Count, p.Sum))
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					add(m.Name, p.Attributes, fmt.Sprintf("n=%d", p.Count))
				}
			default:
				tb.Fatalf("%s: unexpected data %T", m.Name, m.Data)
			}
		}
	}
	return out
}

// diffPoints describes how got differs from want, "" when it does not.
func diffPoints(got, want map[string]map[string]string) string {
	var b strings.Builder
	names := slices.Sorted(maps.Keys(got))
	for n := range maps.Keys(want) {
		if _, ok := got[n]; !ok {
			names = append(names, n)
		}
	}
	for _, n := range names {
		if maps.Equal(got[n], want[n]) {
			continue
		}
		fmt.Fprintf(&b, "%s:\n\tgot  %v\n\twant %v\n", n, got[n], want[n])
	}
	return b.String()
}

// spanView is what a test compares of a span.
type spanView struct {
	Name   string
	Kind   string
	Status string
	Attrs  string
	Events []string
}

func viewOf(s sdktrace.ReadOnlySpan) spanView {
	v := spanView{
		Name:   s.Name(),
		Kind:   s.SpanKind().String(),
		Status: s.Status().Code.String(),
		Attrs:  encode(s.Attributes()),
	}
	if d := s.Status().Description; d != "" {
		v.Status += ": " + d
	}
	for _, e := range s.Events() {
		v.Events = append(v.Events, e.Name+" "+encode(e.Attributes))
	}
	return v
}

// ended returns the views of the spans ended so far.
func (h *harness) ended() []spanView {
	var vs []spanView
	for _, s := range h.spans.Ended() {
		vs = append(vs, viewOf(s))
	}
	return vs
}

// encode is attrs sorted, as "k=v,k=v".
func encode(attrs []attribute.KeyValue) string {
	set := attribute.NewSet(attrs...)
	return set.Encoded(attribute.DefaultEncoder())
}
