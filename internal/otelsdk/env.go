package otelsdk

import (
	"context"
	"errors"
	"fmt"
	"maps"
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

// Env is the OTEL_* configuration: the values of the variables, each
// field named after its variable, "" (or nil) when it is unset. [ReadEnv]
// reads it; [New] checks it.
type Env struct {
	Disabled bool // OTEL_SDK_DISABLED=true

	// TracesExporter and MetricsExporter (OTEL_TRACES_EXPORTER,
	// OTEL_METRICS_EXPORTER) are comma-separated lists of otlp, console
	// and none.
	TracesExporter, MetricsExporter string

	// Endpoint (OTEL_EXPORTER_OTLP_ENDPOINT) gets each signal's path
	// appended; TracesEndpoint and MetricsEndpoint (the _TRACES_ and
	// _METRICS_ forms) are used as they are, and win.
	Endpoint, TracesEndpoint, MetricsEndpoint string

	// Protocol (OTEL_EXPORTER_OTLP_PROTOCOL) and its per-signal forms,
	// which win: only http/protobuf is served.
	Protocol, TracesProtocol, MetricsProtocol string

	// Headers (OTEL_EXPORTER_OTLP_HEADERS) go with every OTLP request;
	// the per-signal ones add to them and win.
	Headers, TracesHeaders, MetricsHeaders map[string]string

	ServiceName string // OTEL_SERVICE_NAME
}

// ReadEnv reads the OTEL_* variables of the configuration table
// (app/variables.go) through getenv, and no other: package app's test of
// ConfigFromEnv checks it. It reports nothing: whether a value can be served depends
// on the providers [New] is given, and New checks it.
func ReadEnv(getenv func(string) string) Env {
	v := func(name string) string { return strings.TrimSpace(getenv(name)) }
	return Env{
		Disabled:        strings.EqualFold(v("OTEL_SDK_DISABLED"), "true"),
		TracesExporter:  v("OTEL_TRACES_EXPORTER"),
		MetricsExporter: v("OTEL_METRICS_EXPORTER"),
		Endpoint:        v("OTEL_EXPORTER_OTLP_ENDPOINT"),
		TracesEndpoint:  v("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
		MetricsEndpoint: v("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"),
		Protocol:        v("OTEL_EXPORTER_OTLP_PROTOCOL"),
		TracesProtocol:  v("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"),
		MetricsProtocol: v("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"),
		Headers:         parseHeaders(getenv("OTEL_EXPORTER_OTLP_HEADERS")),
		TracesHeaders:   parseHeaders(getenv("OTEL_EXPORTER_OTLP_TRACES_HEADERS")),
		MetricsHeaders:  parseHeaders(getenv("OTEL_EXPORTER_OTLP_METRICS_HEADERS")),
		ServiceName:     v("OTEL_SERVICE_NAME"),
	}
}

// parseHeaders reads "k1=v1,k2=v2" with percent-encoded values; nil when
// there is none.
func parseHeaders(v string) map[string]string {
	var h map[string]string
	for pair := range strings.SplitSeq(v, ",") {
		name, value, ok := strings.Cut(pair, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			continue
		}
		if v, err := url.PathUnescape(strings.TrimSpace(value)); err == nil {
			if h == nil {
				h = map[string]string{}
			}
			h[name] = v
		}
	}
	return h
}

// signal is the settings of one signal, the per-signal ones over the
// generic ones.
type signal struct {
	name, variable      string // "traces", "OTEL_TRACES_EXPORTER"
	exporter            string
	endpoint, ownEnd    string
	protocol, ownProto  string
	headers, ownHeaders map[string]string
}

func (e Env) tracesSignal() signal {
	return signal{"traces", "OTEL_TRACES_EXPORTER", e.TracesExporter, e.Endpoint, e.TracesEndpoint, e.Protocol, e.TracesProtocol, e.Headers, e.TracesHeaders}
}

func (e Env) metricsSignal() signal {
	return signal{"metrics", "OTEL_METRICS_EXPORTER", e.MetricsExporter, e.Endpoint, e.MetricsEndpoint, e.Protocol, e.MetricsProtocol, e.Headers, e.MetricsHeaders}
}

// env is the OTEL_* configuration, checked once.
type env struct {
	Env
	traces, metrics []string // exporter names; empty means none
}

// readEnv decides which exporters each signal uses, and checks the values
// it cannot serve. A signal whose provider the caller gave is not checked:
// its variables may be meant for another SDK in the same process.
func readEnv(cfg Env, traces, metrics bool) (env, error) {
	e := env{Env: cfg}
	if cfg.Disabled {
		return e, nil
	}
	var err error
	if traces {
		if e.traces, err = exporters(cfg.tracesSignal()); err != nil {
			return e, err
		}
	}
	if metrics {
		if e.metrics, err = exporters(cfg.metricsSignal()); err != nil {
			return e, err
		}
	}
	return e, nil
}

// exporters returns the exporters named for one signal. Unset, it is otlp
// when an endpoint is set for the signal: setting where to send is asking
// to send. The specification's default (otlp always) would make every
// server without a collector retry a localhost connection forever.
func exporters(s signal) ([]string, error) {
	v := strings.TrimSpace(s.exporter)
	if v == "" {
		if s.endpointURL() == "" {
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
			if p := s.protocolName(); p != "http/protobuf" {
				return nil, fmt.Errorf("telemetry: OTEL_EXPORTER_OTLP_PROTOCOL %q is not supported; use http/protobuf", p)
			}
		case exporterConsole:
		default:
			return nil, fmt.Errorf("telemetry: %s=%q: unknown exporter %q (want otlp, console or none)", s.variable, v, n)
		}
		names = append(names, n)
	}
	return names, nil
}

// endpointURL returns the signal's own OTLP endpoint, used as it is, or
// the generic one with the signal's path appended, as the specification
// says; "" when neither is set.
func (s signal) endpointURL() string {
	if v := strings.TrimSpace(s.ownEnd); v != "" {
		return v
	}
	if v := strings.TrimSpace(s.endpoint); v != "" {
		return strings.TrimRight(v, "/") + "/v1/" + s.name
	}
	return ""
}

// protocolName returns the signal's OTLP protocol, http/protobuf by
// default.
func (s signal) protocolName() string {
	for _, v := range []string{s.ownProto, s.protocol} {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return "http/protobuf"
}

// headerMap returns the signal's OTLP headers: its own add to and
// override the generic ones.
func (s signal) headerMap() map[string]string {
	h := map[string]string{}
	maps.Copy(h, s.headers)
	maps.Copy(h, s.ownHeaders)
	return h
}

// resource describes the server: the SDK's defaults (which read
// OTEL_RESOURCE_ATTRIBUTES), then service.name and service.version, which
// win.
func (e env) resource(cfg Config) (*resource.Resource, error) {
	name := strings.TrimSpace(e.ServiceName)
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
			if cfg.OTLP == nil {
				err = errNoOTLP
				break
			}
			s := e.tracesSignal()
			exp, err = cfg.OTLP.Traces(s.endpointURL(), s.headerMap())
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
		p := sdktrace.NewBatchSpanProcessor(maskSpans{exp})
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
			if cfg.OTLP == nil {
				err = errNoOTLP
				break
			}
			s := e.metricsSignal()
			exp, err = cfg.OTLP.Metrics(s.endpointURL(), s.headerMap())
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
