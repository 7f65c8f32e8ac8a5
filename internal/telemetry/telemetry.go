package telemetry

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Config configures [New]. The zero value is valid: no exporter, no-op
// providers.
type Config struct {
	// ServiceName and ServiceVersion describe the server in the exported
	// resource (service.name, service.version). Env.ServiceName, when
	// set, takes the place of ServiceName.
	ServiceName    string
	ServiceVersion string

	// MeterProvider and TracerProvider, when not nil, are used as they are,
	// for servers that configure OpenTelemetry themselves; the environment
	// is then not checked for that signal, and Shutdown leaves them running:
	// they belong to the caller.
	MeterProvider  metric.MeterProvider
	TracerProvider trace.TracerProvider

	// Propagator reads the trace context of a call from params._meta and
	// from HTTP headers. Nil means W3C Trace Context and Baggage, the
	// formats the MCP semantic conventions name.
	Propagator propagation.TextMapPropagator

	// Env is the OTEL_* configuration (see [ReadEnv]); New reads no
	// environment of its own.
	Env Env

	// OTLP makes the exporters of OTEL_TRACES_EXPORTER=otlp and
	// OTEL_METRICS_EXPORTER=otlp; nil refuses them, saying what to add.
	OTLP OTLPExporters

	// Logger receives the errors of the exporters New builds (a collector
	// that is down, say), at warning: in the server's format, at its level,
	// redacted, rather than on stderr in the standard logger's. Nil leaves
	// OpenTelemetry's global error handler as it is.
	Logger *slog.Logger

	// Console is where the console exporters write. Nil means os.Stderr:
	// stdout belongs to the stdio transport, and a span written there would
	// corrupt the stream.
	Console io.Writer
}

// Telemetry holds a server's instruments and tracer. Build it once per
// server with [New]; it is safe for concurrent use.
type Telemetry struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
	inst   *instruments

	// tracing and metering are false when the provider is the no-op one
	// New chose itself: then Start and End skip building attributes, which
	// is most of their cost. A provider the caller gave is always used.
	tracing, metering bool

	// tp and mp are the providers in use; builtTracer and builtMeter are
	// true for those New built from the environment, which InstallGlobals
	// may install.
	tp                      trace.TracerProvider
	mp                      metric.MeterProvider
	builtTracer, builtMeter bool

	// shutdown stops the providers New built, in order.
	shutdown []func(context.Context) error
}

// New builds the instruments and the tracer. Providers given in cfg are used
// as they are; a nil one comes from the standard variables, as cfg.Env
// holds them:
//
//   - OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER: a comma-separated list
//     of otlp, console and none. Unset, a signal is exported over OTLP when
//     an OTLP endpoint is set for it (OTEL_EXPORTER_OTLP_ENDPOINT or
//     OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT), and not at all
//     otherwise. OTEL_SDK_DISABLED=true turns both off.
//   - otlp is OTLP over HTTP/protobuf, the protocol the specification makes
//     the default; OTEL_EXPORTER_OTLP_PROTOCOL (or its per-signal form) set
//     to anything else is an error rather than a silent change of protocol.
//     The endpoint and headers are cfg.Env's; the exporters
//     read the other OTEL_EXPORTER_OTLP_* variables (timeout, compression,
//     certificates) from the process environment themselves.
//   - console writes JSON lines to cfg.Console.
//   - OTEL_SERVICE_NAME names the service (default cfg.ServiceName);
//     OTEL_RESOURCE_ATTRIBUTES adds to the resource (the SDK reads it from
//     the process environment).
//
// With no exporter configured no SDK provider is built: the no-op providers
// are used and the call path costs almost nothing. An unknown exporter or
// protocol is an error, so that a typo does not silently turn telemetry
// off. New leaves OpenTelemetry's global providers alone; [Telemetry.InstallGlobals]
// installs the ones it built.
func New(cfg Config) (*Telemetry, error) {
	if cfg.Console == nil {
		cfg.Console = os.Stderr
	}
	t := &Telemetry{prop: cfg.Propagator, tracing: true, metering: true}
	if t.prop == nil {
		t.prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	tp := cfg.TracerProvider
	mp := cfg.MeterProvider
	env, err := readEnv(cfg.Env, tp == nil, mp == nil)
	if err != nil {
		return nil, err
	}
	if tp == nil {
		p, stop, err := env.tracerProvider(cfg)
		if err != nil {
			return nil, err
		}
		if p == nil {
			tp, t.tracing = tracenoop.NewTracerProvider(), false
		} else {
			tp, t.builtTracer = p, true
			t.shutdown = append(t.shutdown, stop)
		}
	}
	if mp == nil {
		p, stop, err := env.meterProvider(cfg)
		if err != nil {
			_ = t.Shutdown(context.Background())
			return nil, err
		}
		if p == nil {
			mp, t.metering = metricnoop.NewMeterProvider(), false
		} else {
			mp, t.builtMeter = p, true
			t.shutdown = append(t.shutdown, stop)
		}
	}

	if len(t.shutdown) > 0 && cfg.Logger != nil {
		// The handler is global: set it only when this server runs
		// exporters of its own, never over a caller's configuration.
		log := cfg.Logger
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
			log.Warn("mcpcore: telemetry export failed", "error", err.Error())
		}))
	}
	t.tp, t.mp = tp, mp
	t.tracer = tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))
	t.inst, err = newInstruments(mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL)))
	if err != nil {
		_ = t.Shutdown(context.Background())
		return nil, err
	}
	return t, nil
}

// Shutdown flushes and stops the providers New built, so that no span or
// metric point of a drained call is lost; providers the caller gave are left
// alone. It returns every error met, joined.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	var errs []error
	for _, stop := range t.shutdown {
		errs = append(errs, stop(ctx))
	}
	t.shutdown = nil
	return errors.Join(errs...)
}

// Enabled reports whether anything is recorded at all: false when both
// signals fell back to no-op providers. The root may use it to skip
// measuring input and output sizes.
func (t *Telemetry) Enabled() bool { return t.tracing || t.metering }
