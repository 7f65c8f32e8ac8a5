package mcpcore

import (
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/seed417024ea/mcpcore/internal/config"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/internal/telemetry"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Config is every setting of a server, as Go values: [ServerOptions.Config]
// holds it, and [ConfigFromEnv] reads it from the environment variables of
// the configuration table (docs/configuration.md), each field's comment
// naming its variable. The zero value of every field means that setting's
// default, so the zero Config is the configuration of an empty
// environment; [NewServer] fills in the defaults and checks the whole,
// and reads no environment of its own.
type Config struct {
	// Transport (MCP_TRANSPORT_TYPE) is what [Server.Run] serves: "" or
	// [TransportStdio] is stdio, [TransportHTTP] Streamable HTTP.
	Transport Transport
	// HTTPHost (MCP_HTTP_HOST) is the host Run listens on over HTTP; ""
	// means 127.0.0.1.
	HTTPHost string
	// HTTPPort (MCP_HTTP_PORT) is the port Run listens on over HTTP; 0
	// means 3010, and [AnyPort] a free port the system picks
	// (MCP_HTTP_PORT=0).
	HTTPPort int
	// Stateless (MCP_SESSION_MODE=stateless) serves HTTP without sessions;
	// false is stateful.
	Stateless bool
	// LogLevel (MCP_LOG_LEVEL) is the lowest level of the default logger;
	// zero is info. [LevelNotice] is the level MCP_LOG_LEVEL=notice names.
	LogLevel slog.Level
	// LogJSON (MCP_LOG_FORMAT=json) writes the default logger's records as
	// JSON; false is text.
	LogJSON bool
	// StateKeys (MCP_STATE_KEYS, comma-separated) sign the requestState of
	// calls that ask the client for input over several rounds, so that a
	// client can neither alter it nor replay it into another call. The
	// first key signs; every key verifies, so that a key can be rotated
	// without breaking rounds in flight: put the new key first and keep the
	// old one after it for the hour a round may last, then drop it. Each
	// key has at least 32 characters. Replicas of a stateless server behind
	// a load balancer must be given the same keys, or a round answered by
	// another replica is refused; with none, each process draws a random
	// key of its own, which is right for one process only.
	StateKeys []string
	// AllowedOrigins (MCP_ALLOWED_ORIGINS, comma-separated) are the
	// browser origins, such as https://app.example.com, allowed to call
	// the HTTP endpoint from another origin; nil allows none.
	AllowedOrigins []string

	// MaxResultBytes (MCP_MAX_RESULT_BYTES) bounds the bytes of one
	// answer: a tool's result (its text and its structuredContent
	// together), a resource's contents, a prompt's messages, a
	// completion's values. An answer over it is not sent: the client gets
	// an InternalError naming the limit, and the server logs it. Zero
	// means 8 MiB; a negative value sends answers of any size.
	MaxResultBytes int64
	// MaxCallsInFlight (MCP_MAX_CALLS_IN_FLIGHT) bounds the calls in
	// flight in the whole server, over every transport and session mode;
	// zero (or less) means 512.
	MaxCallsInFlight int
	// MaxCallsPerSession (MCP_MAX_CALLS_PER_SESSION) bounds the calls in
	// flight in one session; zero (or less) means 64.
	MaxCallsPerSession int
	// MaxBodyBytes (MCP_HTTP_MAX_BODY_BYTES) bounds the bytes of one HTTP
	// request body; zero (or less) means 4 MiB.
	MaxBodyBytes int64
	// MaxSessions (MCP_HTTP_MAX_SESSIONS) bounds the HTTP sessions open at
	// once (stateful); zero (or less) means 1000.
	MaxSessions int
	// MaxSessionsPerSubject (MCP_HTTP_MAX_SESSIONS_PER_SUBJECT) bounds the
	// sessions one authenticated subject (a token's sub) may hold at once,
	// so that one token holder cannot take every session; zero (or less)
	// means a tenth of MaxSessions, at least 1. Stateful, with auth only.
	MaxSessionsPerSubject int
	// SessionIdleTimeout (MCP_SESSION_IDLE_TIMEOUT) closes a Streamable
	// HTTP session that has seen no request for that long, so that a
	// client that leaves without a word costs nothing for good. Zero
	// means 30 minutes; a negative value keeps idle sessions open.
	SessionIdleTimeout time.Duration
	// StreamKeepAlive (MCP_HTTP_STREAM_KEEPALIVE) is how long an open
	// event stream (a session's GET stream, a long call's answer) may stay
	// quiet before it is sent an SSE comment, which clients ignore, so that
	// a balancer's or proxy's idle timeout never cuts a stream waiting for
	// its next event (the Go SDK sends none). Zero means 15 seconds; a
	// negative value sends none.
	StreamKeepAlive time.Duration

	// RedisURL (MCP_REDIS_URL), such as redis://:password@10.0.0.5:6379/0
	// (rediss:// for TLS), is the Redis the replicas of a fleet share
	// their notifications and rate limits through (docs/replicas.md). It
	// takes effect only in a program that imports package
	// github.com/seed417024ea/mcpcore/redis; in one that does not,
	// NewServer refuses it and names the import.
	RedisURL string
	// RateLimit (MCP_RATE_LIMIT, such as 10/s or 600/m) is the quota of
	// each caller on each definition that sets no RateLimit of its own;
	// zero is none.
	RateLimit RateLimit

	// Secrets are the values of the variables MCP_SECRET_VARS names
	// (comma-separated), such as an upstream's API key the program reads
	// itself: [ConfigFromEnv] reads them, and the server masks them as it
	// masks [ServerOptions.Secrets]. Each has at least 8 bytes.
	Secrets []string

	// Auth is how the HTTP transport authenticates its callers.
	Auth AuthConfig
	// Telemetry is where the server's spans and metrics go when
	// [ServerOptions] gives no provider.
	Telemetry TelemetryConfig
}

// Transport names how a server talks to its clients (see
// [Config.Transport]).
type Transport string

// The transports of MCP_TRANSPORT_TYPE.
const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http"
)

// AnyPort is the [Config.HTTPPort] that asks the system for a free port,
// as MCP_HTTP_PORT=0 does: the zero HTTPPort means the default, 3010.
const AnyPort = config.AnyPort

// AuthMode says how the HTTP transport authenticates its callers (see
// [AuthConfig.Mode]).
type AuthMode string

// The modes of MCP_AUTH_MODE.
const (
	AuthNone  AuthMode = "none"  // no authentication (loopback only, unless AllowUnauthenticated)
	AuthJWT   AuthMode = "jwt"   // bearer JWTs signed with SecretKey or PublicKey
	AuthOAuth AuthMode = "oauth" // bearer JWTs of an OAuth issuer, verified with its JWKS
)

// AuthConfig is the authentication of the HTTP transport. The zero value is
// mode none, which serves loopback hosts only.
type AuthConfig struct {
	// Mode (MCP_AUTH_MODE) is "" or [AuthNone], [AuthJWT] or [AuthOAuth].
	Mode AuthMode
	// AllowUnauthenticated (MCP_AUTH_ALLOW_UNAUTHENTICATED=true) lets mode
	// none serve on a host other than loopback, when something in front
	// authenticates.
	AllowUnauthenticated bool
	// SecretKey (MCP_AUTH_SECRET_KEY, jwt) verifies HS256 tokens; at least
	// 32 characters.
	SecretKey string
	// PublicKey (MCP_AUTH_PUBLIC_KEY, jwt) is a PEM RSA public key that
	// verifies RS256 tokens, instead of or beside SecretKey.
	PublicKey string
	// Issuer (OAUTH_ISSUER_URL) is required in mode oauth, and checked as
	// the tokens' iss in mode jwt when set.
	Issuer string
	// Audience (OAUTH_AUDIENCE) is required as the tokens' aud; ""
	// means ResourceIdentifier.
	Audience string
	// JWKSURI (OAUTH_JWKS_URI, oauth) is where the issuer's keys are
	// fetched; "" means <Issuer>/.well-known/jwks.json.
	JWKSURI string
	// ResourceIdentifier (MCP_SERVER_RESOURCE_IDENTIFIER) is the server's
	// own resource URI, such as https://mcp.example.com/mcp, published in
	// the protected-resource metadata.
	ResourceIdentifier string
	// RequiredScopes (MCP_AUTH_REQUIRED_SCOPES, separated by spaces or
	// commas) are needed by every request to the endpoint; a token without
	// them gets 403 insufficient_scope.
	RequiredScopes []string
}

// TelemetryConfig is the OpenTelemetry configuration the OTEL_* variables
// give, each field named after its variable; the zero value exports
// nothing. Which exporters a signal may name is checked by [NewServer],
// and only for a signal whose provider [ServerOptions] does not give: the
// variables of such a signal may be meant for another SDK in the process.
// The SDK itself reads a few more variables of the process environment
// (OTEL_RESOURCE_ATTRIBUTES, OTEL_METRIC_EXPORT_INTERVAL, the OTLP
// exporters' timeouts, compression and certificates).
type TelemetryConfig struct {
	// Disabled (OTEL_SDK_DISABLED=true) exports nothing.
	Disabled bool

	// TracesExporter and MetricsExporter (OTEL_TRACES_EXPORTER,
	// OTEL_METRICS_EXPORTER) are comma-separated lists of otlp
	// (HTTP/protobuf), console (stderr) and none. "" means otlp when an
	// OTLP endpoint is set for the signal, and none otherwise.
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
	// add to them and win.
	Headers, TracesHeaders, MetricsHeaders map[string]string

	// ServiceName (OTEL_SERVICE_NAME) is the service.name of what is
	// exported; "" means [Info.Name].
	ServiceName string
}

// ConfigFromEnv reads the configuration from the environment variables of
// the configuration table, exactly those, through getenv (nil means
// os.Getenv). It is the one place the environment is read: [Main] calls it,
// and so may a program that builds its server with [NewServer]. An unset
// variable leaves its field zero (its default). Every bad value is
// reported in one error, of code ConfigurationError, that names each
// variable and what it accepts; so is a combination that could not run
// (MCP_AUTH_MODE=jwt without a key, mode none on a public host).
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	p, err := config.Parse(getenv)
	c := fromInternal(p, telemetry.ReadEnv(getenv))
	// The values it could not read are left zero: resolving the rest
	// reports every other problem in the same error.
	if _, rerr := resolve(p); err != nil || rerr != nil {
		return c, badConfig(errors.Join(err, rerr))
	}
	return c, nil
}

// resolve gives every zero setting its default (config.Resolve holds them)
// and checks the whole, as NewServer needs it.
func resolve(c config.Config) (config.Config, error) {
	r, err := config.Resolve(c)
	if err == nil {
		err = httpserve.CheckOrigins(r.AllowedOrigins)
	}
	return r, err
}

// badConfig is the error of a configuration a server cannot run with.
func badConfig(err error) error {
	return mcperr.New(mcperr.CodeConfigurationError, "mcpcore: bad configuration: "+err.Error(), mcperr.WithCause(err))
}

// internal and fromInternal are the one place Config meets the internal
// configuration, which resolves and checks it. TelemetryConfig converts to
// telemetry.Env and back as it is: the compiler keeps their fields alike.
func (c Config) internal() config.Config {
	a := c.Auth
	return config.Config{
		Transport: config.Transport(c.Transport), HTTPHost: c.HTTPHost, HTTPPort: c.HTTPPort, Stateless: c.Stateless,
		LogLevel: c.LogLevel, LogJSON: c.LogJSON, AllowedOrigins: c.AllowedOrigins, StateKeys: c.StateKeys,
		Auth: config.AuthConfig{
			Mode: config.AuthMode(a.Mode), SecretKey: a.SecretKey, PublicKey: a.PublicKey, Issuer: a.Issuer, Audience: a.Audience,
			JWKSURI: a.JWKSURI, ResourceIdentifier: a.ResourceIdentifier, RequiredScopes: a.RequiredScopes,
			AllowUnauthenticated: a.AllowUnauthenticated,
		},
		MaxBodyBytes: c.MaxBodyBytes, MaxSessions: c.MaxSessions, MaxSessionsPerSubject: c.MaxSessionsPerSubject,
		SessionIdleTimeout: c.SessionIdleTimeout, StreamKeepAlive: c.StreamKeepAlive, MaxCallsPerSession: c.MaxCallsPerSession, MaxResultBytes: c.MaxResultBytes,
		MaxCallsInFlight: c.MaxCallsInFlight, RedisURL: c.RedisURL, RateLimit: c.RateLimit, Secrets: c.Secrets,
	}
}

func fromInternal(c config.Config, t telemetry.Env) Config {
	a := c.Auth
	return Config{
		Transport: Transport(c.Transport), HTTPHost: c.HTTPHost, HTTPPort: c.HTTPPort, Stateless: c.Stateless,
		LogLevel: c.LogLevel, LogJSON: c.LogJSON, AllowedOrigins: c.AllowedOrigins, StateKeys: c.StateKeys,
		MaxResultBytes: c.MaxResultBytes, MaxCallsInFlight: c.MaxCallsInFlight, MaxCallsPerSession: c.MaxCallsPerSession,
		MaxBodyBytes: c.MaxBodyBytes, MaxSessions: c.MaxSessions, MaxSessionsPerSubject: c.MaxSessionsPerSubject,
		SessionIdleTimeout: c.SessionIdleTimeout, StreamKeepAlive: c.StreamKeepAlive, RedisURL: c.RedisURL, RateLimit: c.RateLimit,
		Secrets: c.Secrets,
		Auth: AuthConfig{
			Mode: AuthMode(a.Mode), AllowUnauthenticated: a.AllowUnauthenticated, SecretKey: a.SecretKey, PublicKey: a.PublicKey,
			Issuer: a.Issuer, Audience: a.Audience, JWKSURI: a.JWKSURI, ResourceIdentifier: a.ResourceIdentifier,
			RequiredScopes: a.RequiredScopes,
		},
		Telemetry: TelemetryConfig(t),
	}
}
