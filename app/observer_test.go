package app

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpotel"
)

// nopObserver is an Observer of the program's own.
type nopObserver struct{}

func (nopObserver) StartCall(ctx context.Context, _ mcpcore.CallInfo) (context.Context, mcpcore.CallObservation) {
	return ctx, nil
}
func (nopObserver) StartSession(mcpcore.SessionInfo) mcpcore.SessionObservation { return nil }
func (nopObserver) TraceIDs(context.Context) (string, string)                   { return "", "" }

// TestObserverWiring: the server gets the OpenTelemetry observer on the
// providers there are, the program's or those of the environment; none
// when there are none, so that its calls pay nothing; and an Observer of
// the program's own is kept.
func TestObserverWiring(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	defer tp.Shutdown(context.Background())
	for name, tc := range map[string]struct {
		opts Options
		so   mcpcore.ServerOptions
		want func(mcpcore.Observer) bool
	}{
		"nothing":          {want: func(o mcpcore.Observer) bool { return o == nil }},
		"program's tracer": {opts: Options{TracerProvider: tp}, want: isOTel(tp)},
		"program's observer": {opts: Options{TracerProvider: tp}, so: mcpcore.ServerOptions{Observer: nopObserver{}},
			want: func(o mcpcore.Observer) bool { return o == nopObserver{} }},
	} {
		t.Run(name, func(t *testing.T) {
			so := tc.so
			tel, err := buildTelemetry(mcpcore.Info{Name: "x"}, Config{}, &tc.opts, &so)
			if err != nil {
				t.Fatal(err)
			}
			defer tel.built.Shutdown(context.Background())
			if !tc.want(so.Observer) {
				t.Errorf("Observer = %#v", so.Observer)
			}
		})
	}
}

func isOTel(tp *sdktrace.TracerProvider) func(mcpcore.Observer) bool {
	return func(o mcpcore.Observer) bool {
		obs, ok := o.(*mcpotel.Observer)
		return ok && obs.TracerProvider() == tp
	}
}
