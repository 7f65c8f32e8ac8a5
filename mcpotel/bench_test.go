package mcpotel

import (
	"context"
	"encoding/json"
	"testing"
)

// handlerWork stands in for what the dispatch does for a call anyway:
// decode small arguments, encode a small result. It keeps the comparison
// honest: the budget is a share of a call, not of an empty loop.
func handlerWork(b *testing.B) {
	var args struct {
		PMIDs []string `json:"pmids"`
	}
	if err := json.Unmarshal([]byte(`{"pmids":["123","456"]}`), &args); err != nil {
		b.Fatal(err)
	}
	if _, err := json.Marshal(map[string]any{"articles": args.PMIDs}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkStartEnd measures what observing a call costs. Base is the call
// without telemetry; Noop is the same call through StartCall and End with no
// exporter configured, the case issue 8 holds to 3 %; Recording uses the
// SDK providers (a manual reader, a span recorder), for scale; NoopAlone is
// Start and End alone.
//
//	go test -run '^$' -bench StartEnd -count 10 ./mcpotel | benchstat -col /mode -
func BenchmarkStartEnd(b *testing.B) {
	info := toolCall
	info.Meta = map[string]any{"traceparent": traceparent(metaTrace, metaSpan), "progressToken": 1}
	ctx := context.Background()

	b.Run("mode=Base", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handlerWork(b)
		}
	})
	b.Run("mode=Noop", func(b *testing.B) {
		tel, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_, c := tel.start(ctx, info)
			handlerWork(b)
			c.End(notFound)
		}
	})
	// Alone: Start and End with no exporter and nothing around them, the
	// absolute cost a call pays.
	b.Run("mode=NoopAlone", func(b *testing.B) {
		tel, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_, c := tel.start(ctx, info)
			c.End(notFound)
		}
	})
	b.Run("mode=Recording", func(b *testing.B) {
		h := newHarness(b)
		b.ReportAllocs()
		for b.Loop() {
			_, c := h.tel.start(ctx, info)
			handlerWork(b)
			c.End(notFound)
		}
		h.spans.Reset()
	})
}
