package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// The exporters the OTEL_*_EXPORTER variables name.
const (
	exporterOTLP    = "otlp"
	exporterConsole = "console"
	exporterNone    = "none"
)

// env is the OTEL_* configuration, read once.
type env struct {
	getenv          func(string) string
	traces, metrics []string // exporter names; empty means none
}

// readEnv reads which exporters each signal uses, and checks the values it
// cannot serve. A signal whose provider the caller gave is not read: its
// variables may be meant for another SDK in the same process.
func readEnv(getenv func(string) string, traces, metrics bool) (env, error) {
	e := env{getenv: getenv}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return e, nil
	}
	var err error
	if traces {
		if e.traces, err = exporters(getenv, "OTEL_TRACES_EXPORTER", "TRACES"); err != nil {
			return e, err
		}
	}
	if metrics {
		if e.metrics, err = exporters(getenv, "OTEL_METRICS_EXPORTER", "METRICS"); err != nil {
			return e, err
		}
	}
	return e, nil
}

// exporters returns the exporters variable names for one signal. Unset, it
// is otlp when an endpoint is set for the signal: setting where to send is
// asking to send. The specification's default (otlp always) would make
// every server without a collector retry a localhost connection forever.
func exporters(getenv func(string) string, variable, signal string) ([]string, error) {
	v := strings.TrimSpace(getenv(variable))
	if v == "" {
		if endpoint(getenv, signal) == "" {
			return nil, nil
		}
		v = exporterOTLP
	}
	var names []string
	for n := range strings.SplitSeq(v, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		switch n {
		case exporterNone:
			return nil, nil // "none" wins over anything else listed
		case exporterOTLP:
			if p := protocol(getenv, signal); p != "http/protobuf" {
				return nil, fmt.Errorf("telemetry: OTEL_EXPORTER_OTLP_PROTOCOL %q is not supported; use http/protobuf", p)
			}
		case exporterConsole:
		default:
			return nil, fmt.Errorf("telemetry: %s=%q: unknown exporter %q (want otlp, console or none)", variable, v, n)
		}
		names = append(names, n)
	}
	return names, nil
}

// endpoint returns the signal's own OTLP endpoint, used as it is, or the
// generic one with the signal's path appended, as the specification says;
// "" when neither is set.
func endpoint(getenv func(string) string, signal string) string {
	if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_" + signal + "_ENDPOINT")); v != "" {
		return v
	}
	if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")); v != "" {
		return strings.TrimRight(v, "/") + "/v1/" + strings.ToLower(signal)
	}
	return ""
}

// protocol returns the signal's OTLP protocol, http/protobuf by default.
func protocol(getenv func(string) string, signal string) string {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return v
		}
	}
	return "http/protobuf"
}

// headers returns the signal's OTLP headers, "k1=v1,k2=v2" with
// percent-encoded values; the signal's own variable adds to and overrides
// the generic one.
func headers(getenv func(string) string, signal string) map[string]string {
	h := map[string]string{}
	for _, k := range []string{"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_" + signal + "_HEADERS"} {
		for pair := range strings.SplitSeq(getenv(k), ",") {
			name, value, ok := strings.Cut(pair, "=")
			name = strings.TrimSpace(name)
			if !ok || name == "" {
				continue
			}
			if v, err := url.PathUnescape(strings.TrimSpace(value)); err == nil {
				h[name] = v
			}
		}
	}
	return h
}

// resource describes the server: the SDK's defaults (which read
// OTEL_RESOURCE_ATTRIBUTES), then service.name and service.version, which
// win.
func (e env) resource(cfg Config) (*resource.Resource, error) {
	name := strings.TrimSpace(e.getenv("OTEL_SERVICE_NAME"))
	if name == "" {
		name = cfg.ServiceName
	}
	attrs := resource.NewSchemaless(semconv.ServiceName(name))
	if cfg.ServiceVersion != "" {
		attrs = resource.NewSchemaless(semconv.ServiceName(name), semconv.ServiceVersion(cfg.ServiceVersion))
	}
	return resource.Merge(resource.Default(), attrs)
}

// tracerProvider builds the tracer provider the environment asks for, or
// returns nil when it asks for none.
func (e env) tracerProvider(cfg Config) (*sdktrace.TracerProvider, func(context.Context) error, error) {
	if len(e.traces) == 0 {
		return nil, nil, nil
	}
	res, err := e.resource(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	var procs []sdktrace.SpanProcessor
	for _, name := range e.traces {
		var exp sdktrace.SpanExporter
		switch name {
		case exporterOTLP:
			if OTLPTraces == nil {
				err = errNoOTLP
				break
			}
			exp, err = OTLPTraces(headers(e.getenv, "TRACES"), endpoint(e.getenv, "TRACES"))
		case exporterConsole:
			exp, err = stdouttrace.New(stdouttrace.WithWriter(cfg.Console))
		}
		if err != nil {
			err = fmt.Errorf("telemetry: %s trace exporter: %w", name, err)
			for _, p := range procs {
				err = errors.Join(err, p.Shutdown(context.Background()))
			}
			return nil, nil, err
		}
		// A batch processor starts its goroutine at once: keep it to stop
		// it should a later exporter fail.
		p := sdktrace.NewBatchSpanProcessor(exp)
		procs = append(procs, p)
		opts = append(opts, sdktrace.WithSpanProcessor(p))
	}
	tp := sdktrace.NewTracerProvider(opts...)
	return tp, tp.Shutdown, nil
}

// meterProvider builds the meter provider the environment asks for, or
// returns nil when it asks for none. Readers are periodic; the SDK reads
// OTEL_METRIC_EXPORT_INTERVAL and OTEL_METRIC_EXPORT_TIMEOUT itself.
func (e env) meterProvider(cfg Config) (*sdkmetric.MeterProvider, func(context.Context) error, error) {
	if len(e.metrics) == 0 {
		return nil, nil, nil
	}
	res, err := e.resource(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	opts := []sdkmetric.Option{sdkmetric.WithResource(res)}
	var exps []sdkmetric.Exporter
	for _, name := range e.metrics {
		var exp sdkmetric.Exporter
		switch name {
		case exporterOTLP:
			if OTLPMetrics == nil {
				err = errNoOTLP
				break
			}
			exp, err = OTLPMetrics(headers(e.getenv, "METRICS"), endpoint(e.getenv, "METRICS"))
		case exporterConsole:
			exp, err = stdoutmetric.New(stdoutmetric.WithWriter(cfg.Console))
		}
		if err != nil {
			return nil, nil, errors.Join(fmt.Errorf("telemetry: %s metric exporter: %w", name, err), shutdownAll(exps))
		}
		exps = append(exps, exp)
		opts = append(opts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	}
	mp := sdkmetric.NewMeterProvider(opts...)
	return mp, mp.Shutdown, nil
}

// shutdownAll stops exporters built before a later one failed.
func shutdownAll(exps []sdkmetric.Exporter) error {
	var errs []error
	for _, e := range exps {
		errs = append(errs, e.Shutdown(context.Background()))
	}
	return errors.Join(errs...)
}
