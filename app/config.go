package app

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcphttp"
)

// Config is the configuration the environment gives a server program: the
// server's settings (mcpcore.Config, each field's comment naming its
// variable) and what only a program holds, each field named after its
// variable. The zero value is the configuration of an empty environment.
type Config struct {
	// Config is the server's settings, which New hands to
	// mcpcore.NewServer as they are.
	mcpcore.Config

	// Transport (MCP_TRANSPORT_TYPE) is what [App.Run] serves: "" or
	// [TransportStdio] is stdio, [TransportHTTP] Streamable HTTP.
	Transport Transport
	// HTTPHost (MCP_HTTP_HOST) is the host Run listens on over HTTP; ""
	// means 127.0.0.1.
	HTTPHost string
	// HTTPPort (MCP_HTTP_PORT) is the port Run listens on over HTTP; 0
	// means 3010, and [AnyPort] a free port the system picks
	// (MCP_HTTP_PORT=0).
	HTTPPort int
	// AllowUnauthenticated (MCP_AUTH_ALLOW_UNAUTHENTICATED=true) lets a
	// server without an HTTPAuth (mcpcore.ServerOptions.HTTPAuth, or one
	// New builds from Auth) serve HTTP on a host other than loopback, when
	// something in front of it authenticates: New refuses it otherwise,
	// since anyone who reaches the port could call every tool.
	AllowUnauthenticated bool

	// Auth (MCP_AUTH_MODE and the variables of its modes) is the bearer
	// authentication of the HTTP endpoint, which New builds with
	// mcphttp.NewAuth as mcpcore.ServerOptions.HTTPAuth.
	Auth mcphttp.AuthConfig

	// RedisURL (MCP_REDIS_URL), such as redis://:password@10.0.0.5:6379/0
	// (rediss:// for TLS), is the Redis the replicas of a fleet share
	// their notifications and rate limits through (docs/replicas.md),
	// opened with [Options].OpenRedis; its password is kept secret.
	RedisURL string

	// Secrets are the values of the variables MCP_SECRET_VARS names
	// (comma-separated), such as an upstream's API key the program reads
	// itself: the server masks them as it masks
	// mcpcore.ServerOptions.Secrets. Each has at least 8 bytes.
	Secrets []string

	// Telemetry is where the server's spans and metrics go when
	// mcpcore.ServerOptions gives no provider.
	Telemetry TelemetryConfig
}

// Transport names how a server talks to its clients (see
// [Config].Transport).
type Transport string

// The transports of MCP_TRANSPORT_TYPE.
const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http"
)

// AnyPort is the [Config].HTTPPort that asks the system for a free port,
// as MCP_HTTP_PORT=0 does: the zero HTTPPort means the default, 3010.
const AnyPort = -1

// TelemetryConfig is the OpenTelemetry configuration the OTEL_* variables
// give, each field named after its variable; the zero value exports
// nothing. Which exporters a signal may name is checked by [New], and only
// for a signal whose provider mcpcore.ServerOptions does not give: the
// variables of such a signal may be meant for another SDK in the process.
// The SDK itself reads a few more variables of the process environment
// (OTEL_RESOURCE_ATTRIBUTES, OTEL_METRIC_EXPORT_INTERVAL, the OTLP
// exporters' timeouts, compression and certificates).
type TelemetryConfig struct {
	// Disabled (OTEL_SDK_DISABLED=true) exports nothing.
	Disabled bool

	// TracesExporter and MetricsExporter (OTEL_TRACES_EXPORTER,
	// OTEL_METRICS_EXPORTER) are comma-separated lists of otlp
	// (HTTP/protobuf, with [Options].OTLP), console (stderr) and none. ""
	// means otlp when an OTLP endpoint is set for the signal, and none
	// otherwise.
	TracesExporter, MetricsExporter string

	// Endpoint (OTEL_EXPORTER_OTLP_ENDPOINT) is where OTLP goes, with
	// /v1/traces and /v1/metrics appended; TracesEndpoint and
	// MetricsEndpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, _METRICS_) are
	// used as they are, and win.
	Endpoint, TracesEndpoint, MetricsEndpoint string

	// Protocol (OTEL_EXPORTER_OTLP_PROTOCOL) and its per-signal forms
	// (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, _METRICS_), which win: ""
	// means http/protobuf, the only one served; anything else stops the
	// server.
	Protocol, TracesProtocol, MetricsProtocol string

	// Headers (OTEL_EXPORTER_OTLP_HEADERS, k1=v1,k2=v2 with
	// percent-encoded values) go with every OTLP request; TracesHeaders
	// and MetricsHeaders (OTEL_EXPORTER_OTLP_TRACES_HEADERS, _METRICS_)
	// add to them and win. The credentials among them are kept secret.
	Headers, TracesHeaders, MetricsHeaders map[string]string

	// ServiceName (OTEL_SERVICE_NAME) is the service.name of what is
	// exported; "" means the server's name.
	ServiceName string
}

// badConfig is the error of a configuration a server cannot run with, as
// mcpcore.NewServer words it.
func badConfig(err error) error {
	return mcperr.New(mcperr.CodeConfigurationError, "mcpcore: bad configuration: "+err.Error(), mcperr.WithCause(err))
}
