// Package otelsdk builds the OpenTelemetry SDK providers the OTEL_*
// variables ask for, for package app: the root package records through
// whatever providers it is given and links none of the SDK.
package otelsdk

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Config configures [New]. The zero value builds nothing.
type Config struct {
	// ServiceName and ServiceVersion describe the server in the exported
	// resource (service.name, service.version). Env.ServiceName, when
	// set, takes the place of ServiceName.
	ServiceName    string
	ServiceVersion string

	// Env is the OTEL_* configuration (see [ReadEnv]); New reads no
	// environment of its own.
	Env Env

	// SkipTraces and SkipMetrics leave a signal alone, unchecked: the
	// program gives that provider itself, and the variables may be meant
	// for another SDK in the process.
	SkipTraces, SkipMetrics bool

	// OTLP makes the exporters of OTEL_TRACES_EXPORTER=otlp and
	// OTEL_METRICS_EXPORTER=otlp; nil refuses them, saying what to add.
	OTLP OTLPExporters

	// Console is where the console exporters write. Nil means os.Stderr:
	// stdout belongs to the stdio transport, and a span written there would
	// corrupt the stream.
	Console io.Writer
}

// Providers are the SDK providers [New] built; a field is nil for a
// signal the environment asks nothing of.
type Providers struct {
	Tracer *sdktrace.TracerProvider
	Meter  *sdkmetric.MeterProvider

	// shutdown stops the providers New built, in order.
	shutdown []func(context.Context) error
}

// New builds the providers the environment asks for:
//
//   - OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER: a comma-separated list
//     of otlp, console and none. Unset, a signal is exported over OTLP when
//     an OTLP endpoint is set for it (OTEL_EXPORTER_OTLP_ENDPOINT or
//     OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT), and not at all
//     otherwise. OTEL_SDK_DISABLED=true turns both off.
//   - otlp is OTLP over HTTP/protobuf, the protocol the specification makes
//     the default; OTEL_EXPORTER_OTLP_PROTOCOL (or its per-signal form) set
//     to anything else is an error rather than a silent change of protocol.
//     The endpoint and headers are cfg.Env's; the exporters read the other
//     OTEL_EXPORTER_OTLP_* variables (timeout, compression, certificates)
//     from the process environment themselves.
//   - console writes JSON lines to cfg.Console.
//   - OTEL_SERVICE_NAME names the service (default cfg.ServiceName);
//     OTEL_RESOURCE_ATTRIBUTES adds to the resource (the SDK reads it from
//     the process environment).
//
// The spans exported are masked (see maskSpans). An unknown exporter or
// protocol is an error, so that a typo does not silently turn telemetry
// off.
func New(cfg Config) (*Providers, error) {
	if cfg.Console == nil {
		cfg.Console = os.Stderr
	}
	env, err := readEnv(cfg.Env, !cfg.SkipTraces, !cfg.SkipMetrics)
	if err != nil {
		return nil, err
	}
	p := &Providers{}
	tp, stop, err := env.tracerProvider(cfg)
	if err != nil {
		return nil, err
	}
	if tp != nil {
		p.Tracer = tp
		p.shutdown = append(p.shutdown, stop)
	}
	mp, stop, err := env.meterProvider(cfg)
	if err != nil {
		return nil, errors.Join(err, p.Shutdown(context.Background()))
	}
	if mp != nil {
		p.Meter = mp
		p.shutdown = append(p.shutdown, stop)
	}
	return p, nil
}

// Built reports whether New built any provider.
func (p *Providers) Built() bool { return len(p.shutdown) > 0 }

// LogErrors sends the errors of the exporters (a collector that is down,
// say) to log at warning, in the server's format and redacted, rather
// than to stderr in the standard logger's. The handler is OpenTelemetry's
// global one: it is set only when New built exporters, never over a
// configuration of the program's own.
func (p *Providers) LogErrors(log *slog.Logger) {
	if !p.Built() {
		return
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		log.Warn("mcpcore: telemetry export failed", "error", err.Error())
	}))
}

// Shutdown flushes and stops the providers New built, so that no span or
// metric point of a drained call is lost. It returns every error met,
// joined.
func (p *Providers) Shutdown(ctx context.Context) error {
	var errs []error
	for _, stop := range p.shutdown {
		errs = append(errs, stop(ctx))
	}
	p.shutdown = nil
	return errors.Join(errs...)
}
