// Package config reads the server's settings from the environment, with the
// variables of the TypeScript framework mcp-ts-core, so that one binary
// serves stdio or HTTP without flags.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/level"
)

// Transport names how the server talks to clients.
type Transport string

// The transports.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
)

// Config is the server's configuration: as [Parse] reads it, with zero
// for every setting left to its default, or as [Resolve] completes it.
type Config struct {
	Transport Transport  // MCP_TRANSPORT_TYPE: stdio (default) or http
	HTTPHost  string     // MCP_HTTP_HOST: default 127.0.0.1
	HTTPPort  int        // MCP_HTTP_PORT: default 3010
	Stateless bool       // MCP_SESSION_MODE: stateful (default) or stateless
	LogLevel  slog.Level // MCP_LOG_LEVEL: debug, info (default), notice, warning, error
	LogJSON   bool       // MCP_LOG_FORMAT: text (default) or json
	// StateKeys (MCP_STATE_KEYS, comma-separated) sign the requestState of
	// multi-round calls: the first signs, every one verifies. Each has at
	// least MinStateKeyLen characters; none means a random key.
	StateKeys []string
	// AllowedOrigins (MCP_ALLOWED_ORIGINS, comma-separated) are the
	// browser origins, such as https://app.example.com, allowed to call
	// the HTTP endpoint from another origin.
	AllowedOrigins []string

	Auth AuthConfig

	// Limits of the HTTP transport; Resolve fills in the defaults.
	MaxBodyBytes int64 // MCP_HTTP_MAX_BODY_BYTES: default 4 MiB
	MaxSessions  int   // MCP_HTTP_MAX_SESSIONS: default 1000 (stateful only)
	// MaxSessionsPerSubject (MCP_HTTP_MAX_SESSIONS_PER_SUBJECT) is the most
	// sessions one authenticated subject (a token's sub) may hold at once:
	// by default a tenth of MaxSessions, at least 1, so that one token
	// holder cannot take every session. Set it to MaxSessions for no
	// share. Stateful, with auth only.
	MaxSessionsPerSubject int
	SessionIdleTimeout    time.Duration // MCP_SESSION_IDLE_TIMEOUT: default 30m; negative: never
	// StreamKeepAlive (MCP_HTTP_STREAM_KEEPALIVE) is how long an open event
	// stream may stay quiet before it is sent a comment: default 15 s;
	// negative (the variable's "off"): none.
	StreamKeepAlive    time.Duration
	MaxCallsPerSession int // MCP_MAX_CALLS_PER_SESSION: calls in flight per session, default 64

	// MaxResultBytes (MCP_MAX_RESULT_BYTES: default 8 MiB) bounds the bytes
	// of one answer: a tool's result, a resource's contents, a prompt's
	// messages, a completion's values. Negative: no bound.
	MaxResultBytes int64

	// MaxCallsInFlight (MCP_MAX_CALLS_IN_FLIGHT) bounds the calls in
	// flight in the whole server, over every transport and session mode
	// (stateless included, where no session bounds a client): default 512.
	MaxCallsInFlight int

	// RedisURL (MCP_REDIS_URL) is the Redis the replicas of a fleet share
	// notifications and quotas through; package app opens it with the
	// opener the program gives (redis.Open).
	RedisURL string
	// RateLimit (MCP_RATE_LIMIT, such as 10/s) is the quota of every
	// definition without one of its own, for each caller: zero, none.
	RateLimit fleet.Limit

	// Secrets (MCP_SECRET_VARS) are the values of the variables that
	// MCP_SECRET_VARS names: secrets the program holds, masked wherever
	// they would leave the process (package app keeps them).
	Secrets []string
}

// AuthMode says how the HTTP transport authenticates its callers.
type AuthMode string

// The modes of MCP_AUTH_MODE.
const (
	AuthNone  AuthMode = "none"  // no authentication (loopback only, unless opted out)
	AuthJWT   AuthMode = "jwt"   // bearer JWTs signed with a configured secret or key
	AuthOAuth AuthMode = "oauth" // bearer JWTs of an OAuth issuer, verified with its JWKS
)

// AuthConfig is the authentication of the HTTP transport, with the
// variables of mcp-ts-core.
type AuthConfig struct {
	Mode AuthMode // MCP_AUTH_MODE: none (default), jwt or oauth
	// SecretKey (MCP_AUTH_SECRET_KEY, jwt) verifies HS256 tokens; at least
	// 32 characters.
	SecretKey string
	// PublicKey (MCP_AUTH_PUBLIC_KEY, jwt) is a PEM RSA public key that
	// verifies RS256 tokens, instead of or beside SecretKey.
	PublicKey string
	Issuer    string // OAUTH_ISSUER_URL (oauth: required; jwt: checked when set)
	Audience  string // OAUTH_AUDIENCE: default ResourceIdentifier
	JWKSURI   string // OAUTH_JWKS_URI: default <issuer>/.well-known/jwks.json
	// ResourceIdentifier (MCP_SERVER_RESOURCE_IDENTIFIER) is the server's
	// own resource URI, such as https://mcp.example.com/mcp: the audience
	// tokens must name, and the resource of the protected-resource metadata.
	ResourceIdentifier string
	// RequiredScopes (MCP_AUTH_REQUIRED_SCOPES, separated by spaces or
	// commas) are needed by every request to the endpoint; a token without
	// them gets 403 insufficient_scope.
	RequiredScopes []string
	// AllowUnauthenticated (MCP_AUTH_ALLOW_UNAUTHENTICATED=true) lets mode
	// none serve on an address other than loopback.
	AllowUnauthenticated bool
}

// Addr is the HTTP listen address.
func (c Config) Addr() string {
	return net.JoinHostPort(c.HTTPHost, strconv.Itoa(c.HTTPPort))
}

// AnyPort is the HTTPPort of a Config that asks the system for a free
// port (MCP_HTTP_PORT=0): zero in a Config not yet resolved means the
// default port, 3010.
const AnyPort = -1

// FromEnv reads the configuration through getenv and resolves it: [Parse],
// then [Resolve]. Every bad value is reported, with the variable's name
// and what it accepts.
func FromEnv(getenv func(string) string) (Config, error) {
	c, err := Parse(getenv)
	r, rerr := Resolve(c)
	return r, errors.Join(err, rerr)
}

// Parse reads the variables through getenv into a Config whose unset
// settings are zero, as [Resolve] takes them; MCP_HTTP_PORT=0 is
// [AnyPort]. A value it cannot read is reported with the variable's name
// and what it accepts, and left zero.
func Parse(getenv func(string) string) (Config, error) {
	var c Config
	var errs []error
	bad := func(name, value, want string) {
		errs = append(errs, fmt.Errorf("%s=%q: want %s", name, value, want))
	}
	if v := getenv("MCP_TRANSPORT_TYPE"); v != "" {
		switch Transport(strings.ToLower(v)) {
		case Stdio:
			c.Transport = Stdio
		case HTTP:
			c.Transport = HTTP
		default:
			bad("MCP_TRANSPORT_TYPE", v, "stdio or http")
		}
	}
	c.HTTPHost = getenv("MCP_HTTP_HOST")
	if v := getenv("MCP_HTTP_PORT"); v != "" {
		port, err := strconv.Atoi(v)
		switch {
		case err != nil || port < 0 || port > 65535:
			bad("MCP_HTTP_PORT", v, "a port number from 0 to 65535")
		case port == 0:
			c.HTTPPort = AnyPort
		default:
			c.HTTPPort = port
		}
	}
	if v := getenv("MCP_SESSION_MODE"); v != "" {
		switch strings.ToLower(v) {
		case "stateful", "auto":
			c.Stateless = false
		case "stateless":
			c.Stateless = true
		default:
			bad("MCP_SESSION_MODE", v, "stateful or stateless")
		}
	}
	if v := getenv("MCP_LOG_LEVEL"); v != "" {
		if level, ok := level.Parse(v); ok {
			c.LogLevel = level
		} else {
			bad("MCP_LOG_LEVEL", v, "debug, info, notice, warning or error")
		}
	}
	if v := getenv("MCP_ALLOWED_ORIGINS"); v != "" {
		for _, o := range strings.Split(v, ",") {
			if o = strings.TrimSpace(o); o != "" {
				c.AllowedOrigins = append(c.AllowedOrigins, o)
			}
		}
	}
	if v := getenv("MCP_STATE_KEYS"); v != "" {
		for _, k := range strings.Split(v, ",") {
			c.StateKeys = append(c.StateKeys, strings.TrimSpace(k))
		}
	}
	if v := getenv("MCP_LOG_FORMAT"); v != "" {
		switch strings.ToLower(v) {
		case "text":
		case "json":
			c.LogJSON = true
		default:
			bad("MCP_LOG_FORMAT", v, "text or json")
		}
	}
	c.Auth, errs = parseAuth(getenv, errs)
	c.MaxBodyBytes = positive(getenv, "MCP_HTTP_MAX_BODY_BYTES", bad)
	c.MaxSessions = int(positive(getenv, "MCP_HTTP_MAX_SESSIONS", bad))
	c.MaxSessionsPerSubject = int(positive(getenv, "MCP_HTTP_MAX_SESSIONS_PER_SUBJECT", bad))
	c.MaxCallsPerSession = int(positive(getenv, "MCP_MAX_CALLS_PER_SESSION", bad))
	c.MaxResultBytes = positive(getenv, "MCP_MAX_RESULT_BYTES", bad)
	c.MaxCallsInFlight = int(positive(getenv, "MCP_MAX_CALLS_IN_FLIGHT", bad))
	if v := getenv("MCP_SESSION_IDLE_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			bad("MCP_SESSION_IDLE_TIMEOUT", v, "a positive duration such as 30m or 2h")
		} else {
			c.SessionIdleTimeout = d
		}
	}
	if v := getenv("MCP_HTTP_STREAM_KEEPALIVE"); v != "" {
		if d, err := time.ParseDuration(v); v == "off" {
			c.StreamKeepAlive = -1
		} else if err != nil || d <= 0 {
			bad("MCP_HTTP_STREAM_KEEPALIVE", v, "a positive duration such as 15s, or off")
		} else {
			c.StreamKeepAlive = d
		}
	}
	errs = parseFleet(&c, getenv, errs)
	errs = parseSecrets(&c, getenv, errs)
	return c, errors.Join(errs...)
}

// Resolve gives every zero setting of c its default, the one place the
// defaults are written, and checks that the settings make a server that
// can run: [AnyPort] becomes port 0, a negative MaxResultBytes (no bound)
// and SessionIdleTimeout (never) stay as they are, and the authentication is
// checked as a whole (see resolveAuth). The errors name the variables,
// the names the documentation gives the settings.
func Resolve(c Config) (Config, error) {
	if c.Transport == "" {
		c.Transport = Stdio
	}
	if c.HTTPHost == "" {
		c.HTTPHost = "127.0.0.1"
	}
	switch {
	case c.HTTPPort == AnyPort:
		c.HTTPPort = 0
	case c.HTTPPort == 0:
		c.HTTPPort = DefaultHTTPPort
	}
	var errs []error
	if c.HTTPPort < 0 || c.HTTPPort > 65535 {
		errs = append(errs, fmt.Errorf("MCP_HTTP_PORT=%d: want a port number from 0 to 65535", c.HTTPPort))
	}
	c.AllowedOrigins = slices.Clone(c.AllowedOrigins)
	c.StateKeys = slices.Clone(c.StateKeys)
	for i, k := range c.StateKeys {
		// The key itself is never written into the error: it is a secret.
		switch {
		case len(k) < MinStateKeyLen:
			errs = append(errs, fmt.Errorf("MCP_STATE_KEYS: key %d of %d has %d characters; each needs at least %d", i+1, len(c.StateKeys), len(k), MinStateKeyLen))
		case slices.Index(c.StateKeys, k) < i:
			errs = append(errs, fmt.Errorf("MCP_STATE_KEYS: key %d of %d repeats key %d", i+1, len(c.StateKeys), slices.Index(c.StateKeys, k)+1))
		}
	}
	orDefault(&c.MaxBodyBytes, DefaultMaxBodyBytes)
	orDefault(&c.MaxSessions, DefaultMaxSessions)
	orDefault(&c.MaxSessionsPerSubject, DefaultMaxSessionsPerSubject(c.MaxSessions))
	orDefault(&c.MaxCallsPerSession, DefaultMaxCallsPerSession)
	orDefault(&c.MaxCallsInFlight, DefaultMaxCallsInFlight)
	if c.MaxResultBytes == 0 {
		c.MaxResultBytes = DefaultMaxResultBytes
	}
	if c.SessionIdleTimeout == 0 {
		c.SessionIdleTimeout = DefaultSessionIdle
	}
	if c.StreamKeepAlive == 0 {
		c.StreamKeepAlive = DefaultStreamKeepAlive
	}
	if c.RedisURL != "" {
		if err := checkRedisURL(c.RedisURL); err != nil {
			errs = append(errs, err)
		}
	}
	if err := c.RateLimit.Check(); err != nil {
		errs = append(errs, fmt.Errorf("MCP_RATE_LIMIT: %w", err))
	}
	c.Auth, errs = resolveAuth(c, errs)
	c.Secrets = slices.Clone(c.Secrets)
	errs = checkSecrets(c, errs)
	return c, errors.Join(errs...)
}

// orDefault gives a limit its default when it is zero or less: a limit of
// no calls or no bytes would be a server that serves nothing.
func orDefault[T int | int64](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// The defaults of the limits.
const (
	DefaultHTTPPort    = 3010
	DefaultSessionIdle = 30 * time.Minute
	// DefaultStreamKeepAlive is below the idle timeouts of common
	// balancers and proxies (haproxy's and nginx's defaults are 30 s and
	// more, AWS's ALB 60 s).
	DefaultStreamKeepAlive    = 15 * time.Second
	DefaultMaxBodyBytes       = 4 << 20
	DefaultMaxSessions        = 1000
	DefaultMaxCallsPerSession = 64
	// DefaultMaxCallsInFlight is what a server of two cores holds with
	// room to spare: 640 slow calls over HTTP held some 2,000 goroutines
	// and 64 MB of RSS. Without a bound, one client could pile up as many
	// as it liked (over several sessions, or in stateless mode).
	DefaultMaxCallsInFlight = 512
)

// MinStateKeyLen is the fewest characters of a key of MCP_STATE_KEYS: 32
// bytes, the size of the HMAC-SHA256 key they make.
const MinStateKeyLen = 32

// DefaultMaxResultBytes is the default bound on the bytes of one answer.
const DefaultMaxResultBytes = 8 << 20

// DefaultMaxSessionsPerSubject is the share of a subject when
// MCP_HTTP_MAX_SESSIONS_PER_SUBJECT is unset: a tenth of the cap, at
// least 1, so that at least ten subjects can hold sessions at once.
func DefaultMaxSessionsPerSubject(maxSessions int) int { return max(1, maxSessions/10) }

// positive reads a whole number above zero, or returns 0 when name is
// unset or bad.
func positive(getenv func(string) string, name string, bad func(name, value, want string)) int64 {
	v := getenv(name)
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > 1<<40 {
		bad(name, v, "a whole number above zero")
		return 0
	}
	return n
}
