package app_test

// The OpenTelemetry globals: an app that builds its providers from the
// environment installs them, so that a service's spans nest under the call;
// one given providers, or told to keep the globals, leaves them alone.
//
// These tests change process-wide state: none is parallel, so that no
// parallel test runs while they do (Go starts those after the sequential
// ones), and each puts the globals back.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// efetch stands for a service of the server's: it knows nothing of mcpcore
// and starts its span from the global tracer, as instrumented libraries do.
func efetch(ctx context.Context, pmid string) string {
	_, span := otel.Tracer("ncbi").Start(ctx, "ncbi efetch")
	defer span.End()
	return "article " + pmid
}

type pmidInput struct {
	PMID string `json:"pmid"`
}

type titleOutput struct {
	Title string `json:"title"`
}

var efetchTool = mcpcore.Tool[pmidInput, titleOutput]{
	Name:        "fetch_article",
	Description: "Fetches one article through a traced service.",
	Handler: func(ctx *mcpcore.Context, in pmidInput) (titleOutput, error) {
		return titleOutput{Title: efetch(ctx, in.PMID)}, nil
	},
}

// keepGlobals puts OpenTelemetry's globals back when the test ends.
func keepGlobals(t *testing.T) {
	tp, mp, prop := otel.GetTracerProvider(), otel.GetMeterProvider(), otel.GetTextMapPropagator()
	t.Cleanup(func() {
		// Setting a global to its current value is reported as an error.
		if otel.GetTracerProvider() != tp {
			otel.SetTracerProvider(tp)
		}
		if otel.GetMeterProvider() != mp {
			otel.SetMeterProvider(mp)
		}
		if otel.GetTextMapPropagator() != prop {
			otel.SetTextMapPropagator(prop)
		}
	})
}

// withStderr runs build with os.Stderr set to w: the console exporters
// write to the stderr of the moment the server is built.
func withStderr(w *os.File, build func()) {
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()
	build()
}

// quiet runs build with the console exporters writing nowhere.
func quiet(t *testing.T, build func()) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { null.Close() })
	withStderr(null, build)
}

// consoleSpan is what the console exporter writes of a span.
type consoleSpan struct {
	Name        string
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct{ TraceID, SpanID string }
}

// TestServiceSpanNestsUnderTheCall: with OTEL_TRACES_EXPORTER=console and
// nothing else, a span a service starts from the handler's context with
// otel.Tracer is exported with the call span, as its child, in the
// client's trace.
func TestServiceSpanNestsUnderTheCall(t *testing.T) {
	keepGlobals(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var a *app.App
	withStderr(w, func() {
		a = newApp(t, configOf(t, map[string]string{"OTEL_TRACES_EXPORTER": "console"}), nil, efetchTool)
	})
	srv := a.Server()
	var out bytes.Buffer
	read := make(chan struct{})
	go func() { defer close(read); io.Copy(&out, r) }()

	if _, ok := a.TracerProvider().(*sdktrace.TracerProvider); !ok || otel.GetTracerProvider() != a.TracerProvider() {
		t.Fatalf("TracerProvider = %T, global %T; want the SDK provider built from the environment, installed", a.TracerProvider(), otel.GetTracerProvider())
	}
	if !slices.Contains(otel.GetTextMapPropagator().Fields(), "traceparent") {
		t.Errorf("global propagator fields %v; want W3C Trace Context", otel.GetTextMapPropagator().Fields())
	}

	cs := wiretest.Connect(t, srv.MCPServer())
	const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "fetch_article", Arguments: map[string]any{"pmid": "31452104"}, Meta: mcp.Meta{"traceparent": traceparent},
	})
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %v %v", res, err)
	}
	a.Close(context.Background()) // flushes the batch, as the end of Run does
	w.Close()
	<-read

	spans := map[string]consoleSpan{}
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s consoleSpan
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("console line %q: %v", sc.Text(), err)
		}
		spans[s.Name] = s
	}
	call, ok1 := spans["tools/call fetch_article"]
	svc, ok2 := spans["ncbi efetch"]
	if !ok1 || !ok2 {
		t.Fatalf("spans %v; want the call's and the service's; console output:\n%s", spans, out.String())
	}
	if call.SpanContext.TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || call.Parent.SpanID != "00f067aa0ba902b7" {
		t.Errorf("call span %+v is not in the client's trace", call)
	}
	if svc.Parent.SpanID != call.SpanContext.SpanID || svc.SpanContext.TraceID != call.SpanContext.TraceID {
		t.Errorf("service span %+v is not a child of the call span %+v", svc, call)
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("console output:\n%s", out.String())
	}
}

// TestGlobalsLeftAlone: the globals stay as they were when the app is
// given providers, told to keep them, built without exporters or not built
// at all, and when the program installed its own.
func TestGlobalsLeftAlone(t *testing.T) {
	console := configOf(t, map[string]string{"OTEL_TRACES_EXPORTER": "console", "OTEL_METRICS_EXPORTER": "console"})
	tp := sdktrace.NewTracerProvider()
	mp := sdkmetric.NewMeterProvider()
	for name, tc := range map[string]struct {
		opts   app.Options
		wantTP trace.TracerProvider // nil: an SDK provider of the app's
	}{
		"given providers": {opts: app.Options{TracerProvider: tp, MeterProvider: mp}, wantTP: tp},
		"kept":            {opts: app.Options{KeepOTelGlobals: true}},
	} {
		t.Run(name, func(t *testing.T) {
			keepGlobals(t)
			gtp, gmp, gprop := otel.GetTracerProvider(), otel.GetMeterProvider(), otel.GetTextMapPropagator()
			opts := tc.opts
			var a *app.App
			quiet(t, func() { a = newApp(t, console, &opts, efetchTool) })
			defer a.Close(context.Background())
			if otel.GetTracerProvider() != gtp || otel.GetMeterProvider() != gmp || otel.GetTextMapPropagator() != gprop {
				t.Errorf("globals replaced: %T %T %T", otel.GetTracerProvider(), otel.GetMeterProvider(), otel.GetTextMapPropagator())
			}
			got := a.TracerProvider()
			if _, sdk := got.(*sdktrace.TracerProvider); (tc.wantTP != nil && got != tc.wantTP) || (tc.wantTP == nil && !sdk) {
				t.Errorf("TracerProvider = %T %p, want %p", got, got, tc.wantTP)
			}
			if tc.wantTP != nil && a.MeterProvider() != mp {
				t.Errorf("MeterProvider = %T, want the given one", a.MeterProvider())
			}
		})
	}

	t.Run("no exporter", func(t *testing.T) {
		keepGlobals(t)
		gtp, gmp := otel.GetTracerProvider(), otel.GetMeterProvider()
		a := newApp(t, app.Config{}, nil, efetchTool)
		if otel.GetTracerProvider() != gtp || otel.GetMeterProvider() != gmp {
			t.Error("globals replaced by a server that exports nothing")
		}
		if _, span := a.TracerProvider().Tracer("x").Start(context.Background(), "y"); span.IsRecording() {
			t.Error("the TracerProvider of a server without exporters records")
		}
		if a.MeterProvider() == nil {
			t.Error("MeterProvider is nil")
		}
	})

	t.Run("failed server", func(t *testing.T) {
		keepGlobals(t)
		gtp := otel.GetTracerProvider()
		var err error
		quiet(t, func() {
			_, err = app.New(mcpcore.Info{Name: "x"}, console, nil, efetchTool, efetchTool)
		})
		if err == nil {
			t.Fatal("New accepted a tool defined twice")
		}
		if otel.GetTracerProvider() != gtp {
			t.Error("a server that failed to build installed its provider")
		}
	})

	t.Run("program's own", func(t *testing.T) {
		keepGlobals(t)
		own := sdktrace.NewTracerProvider()
		otel.SetTracerProvider(own)
		var a *app.App
		quiet(t, func() { a = newApp(t, console, nil, efetchTool) })
		defer a.Close(context.Background())
		if otel.GetTracerProvider() != own {
			t.Errorf("the program's own global tracer provider was replaced by %T", otel.GetTracerProvider())
		}
		// The meter provider, which the program left alone, is the app's.
		if otel.GetMeterProvider() != a.MeterProvider() {
			t.Errorf("global meter provider %T, want the server's", otel.GetMeterProvider())
		}
	})
}
