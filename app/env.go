package app

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/level"
	"github.com/seed417024ea/mcpcore/internal/otelsdk"
	"github.com/seed417024ea/mcpcore/mcphttp"
)

// ConfigFromEnv reads the configuration from the environment variables of
// the configuration table, exactly those (and the variables
// MCP_SECRET_VARS names), through getenv (nil means os.Getenv). It is the
// one place the environment is read: [Main] calls it, and so may a program
// that changes settings in Go before [New]. An unset variable leaves its
// field zero (its default). Every bad value is reported in one error, of
// code ConfigurationError, that names each variable and what it accepts;
// so is a combination that could not run (MCP_AUTH_MODE=jwt without a
// key, mode none on a public host), found by the checks New and
// mcpcore.NewServer make ([mcpcore.Config.Check],
// [mcphttp.AuthConfig.Check]).
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	e := &env{getenv: getenv}
	var c Config
	e.readListening(&c)
	e.readServer(&c.Config)
	e.readAuth(&c.Auth, &c.AllowUnauthenticated)
	e.readFleet(&c)
	e.readSecrets(&c)
	c.Telemetry = TelemetryConfig(otelsdk.ReadEnv(getenv))
	// A value it could not read is left zero: checking the rest reports
	// every other problem in the same error.
	var own keeper
	c.keepOwnSecrets(&own)
	authed := c.Auth.Mode == mcphttp.AuthJWT || c.Auth.Mode == mcphttp.AuthOAuth
	_, where := c.where(authed)
	if err := errors.Join(append(e.errs, c.Config.Check(), c.Auth.Check(), where, errors.Join(own.errs...))...); err != nil {
		return c, badConfig(err)
	}
	return c, nil
}

// env reads variables through getenv and collects the values it cannot
// read, each reported with the variable's name and what it accepts.
type env struct {
	getenv func(string) string
	errs   []error
}

// bad reports the value of a variable that is not one it accepts.
func (e *env) bad(name, value, want string) {
	e.errs = append(e.errs, fmt.Errorf("%s=%q: want %s", name, value, want))
}

// readListening reads where [App.Run] serves: MCP_TRANSPORT_TYPE,
// MCP_HTTP_HOST and MCP_HTTP_PORT, where 0 is [AnyPort].
func (e *env) readListening(c *Config) {
	if v := e.getenv("MCP_TRANSPORT_TYPE"); v != "" {
		switch t := Transport(strings.ToLower(v)); t {
		case TransportStdio, TransportHTTP:
			c.Transport = t
		default:
			e.bad("MCP_TRANSPORT_TYPE", v, "stdio or http")
		}
	}
	c.HTTPHost = e.getenv("MCP_HTTP_HOST")
	if v := e.getenv("MCP_HTTP_PORT"); v != "" {
		port, err := strconv.Atoi(v)
		switch {
		case err != nil || port < 0 || port > 65535:
			e.bad("MCP_HTTP_PORT", v, "a port number from 0 to 65535")
		case port == 0:
			c.HTTPPort = AnyPort
		default:
			c.HTTPPort = port
		}
	}
}

// readServer reads the server's own settings, those of mcpcore.Config
// but its rate limit (see readFleet).
func (e *env) readServer(c *mcpcore.Config) {
	if v := e.getenv("MCP_SESSION_MODE"); v != "" {
		switch strings.ToLower(v) {
		case "stateful", "auto":
		case "stateless":
			c.Stateless = true
		default:
			e.bad("MCP_SESSION_MODE", v, "stateful or stateless")
		}
	}
	if v := e.getenv("MCP_LOG_LEVEL"); v != "" {
		if l, ok := level.Parse(v); ok {
			c.LogLevel = l
		} else {
			e.bad("MCP_LOG_LEVEL", v, "debug, info, notice, warning or error")
		}
	}
	if v := e.getenv("MCP_LOG_FORMAT"); v != "" {
		switch strings.ToLower(v) {
		case "text":
		case "json":
			c.LogJSON = true
		default:
			e.bad("MCP_LOG_FORMAT", v, "text or json")
		}
	}
	if v := e.getenv("MCP_ALLOWED_ORIGINS"); v != "" {
		for o := range strings.SplitSeq(v, ",") {
			if o = strings.TrimSpace(o); o != "" {
				c.AllowedOrigins = append(c.AllowedOrigins, o)
			}
		}
	}
	if v := e.getenv("MCP_STATE_KEYS"); v != "" {
		for k := range strings.SplitSeq(v, ",") {
			c.StateKeys = append(c.StateKeys, strings.TrimSpace(k))
		}
	}
	c.MaxResultBytes = e.positive("MCP_MAX_RESULT_BYTES")
	c.MaxCallsInFlight = int(e.positive("MCP_MAX_CALLS_IN_FLIGHT"))
	c.MaxCallsPerSession = int(e.positive("MCP_MAX_CALLS_PER_SESSION"))
	c.MaxBodyBytes = e.positive("MCP_HTTP_MAX_BODY_BYTES")
	c.MaxSessions = int(e.positive("MCP_HTTP_MAX_SESSIONS"))
	c.MaxSessionsPerSubject = int(e.positive("MCP_HTTP_MAX_SESSIONS_PER_SUBJECT"))
	if v := e.getenv("MCP_SESSION_IDLE_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			e.bad("MCP_SESSION_IDLE_TIMEOUT", v, "a positive duration such as 30m or 2h")
		} else {
			c.SessionIdleTimeout = d
		}
	}
	c.TaskAfter = e.duration("MCP_TASK_AFTER")
	c.TaskTTL = e.duration("MCP_TASK_TTL")
	c.TaskPollInterval = e.duration("MCP_TASK_POLL_INTERVAL")
	c.MaxTasks = int(e.positive("MCP_MAX_TASKS"))
	if v := e.getenv("MCP_HTTP_STREAM_KEEPALIVE"); v != "" {
		if d, err := time.ParseDuration(v); v == "off" {
			c.StreamKeepAlive = -1
		} else if err != nil || d <= 0 {
			e.bad("MCP_HTTP_STREAM_KEEPALIVE", v, "a positive duration such as 15s, or off")
		} else {
			c.StreamKeepAlive = d
		}
	}
}

// duration reads a duration above zero, or returns 0 when name is unset or
// bad.
func (e *env) duration(name string) time.Duration {
	v := e.getenv(name)
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		e.bad(name, v, "a positive duration such as 500ms, 30s or 2h")
		return 0
	}
	return d
}

// positive reads a whole number above zero, or returns 0 when name is
// unset or bad.
func (e *env) positive(name string) int64 {
	v := e.getenv(name)
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > 1<<40 {
		e.bad(name, v, "a whole number above zero")
		return 0
	}
	return n
}
