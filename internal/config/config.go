// Package config reads the server's settings from the environment, with the
// variables of the TypeScript framework mcp-ts-core, so that one binary
// serves stdio or HTTP without flags.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
)

// Transport names how the server talks to clients.
type Transport string

// The transports.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
)

// Config is the server's environment configuration.
type Config struct {
	Transport Transport  // MCP_TRANSPORT_TYPE: stdio (default) or http
	HTTPHost  string     // MCP_HTTP_HOST: default 127.0.0.1
	HTTPPort  int        // MCP_HTTP_PORT: default 3010
	Stateless bool       // MCP_SESSION_MODE: stateful (default) or stateless
	LogLevel  slog.Level // MCP_LOG_LEVEL: debug, info (default), notice, warning, error
	LogJSON   bool       // MCP_LOG_FORMAT: text (default) or json
	// AllowedOrigins (MCP_ALLOWED_ORIGINS, comma-separated) are the
	// browser origins, such as https://app.example.com, allowed to call
	// the HTTP endpoint from another origin.
	AllowedOrigins []string
}

// Addr is the HTTP listen address.
func (c Config) Addr() string {
	return net.JoinHostPort(c.HTTPHost, strconv.Itoa(c.HTTPPort))
}

// LevelNotice is the level of notice records, between info and warning as
// in syslog; slog has none of its own. mcpcore.LevelNotice is this level.
const LevelNotice = slog.Level(2)

// ParseLevel returns the slog level of a level name: debug, info, notice,
// warning (or warn) or error, in any case. MCP_LOG_LEVEL and the severities
// of error contracts both use these names.
func ParseLevel(name string) (slog.Level, bool) {
	switch strings.ToLower(name) {
	case "debug":
		return slog.LevelDebug, true
	case "info":
		return slog.LevelInfo, true
	case "notice":
		return LevelNotice, true
	case "warning", "warn":
		return slog.LevelWarn, true
	case "error":
		return slog.LevelError, true
	}
	return 0, false
}

// FromEnv reads the configuration through getenv (os.Getenv in production).
// Every bad value is reported, with the variable's name and what it accepts.
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{Transport: Stdio, HTTPHost: "127.0.0.1", HTTPPort: 3010, LogLevel: slog.LevelInfo}
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
	if v := getenv("MCP_HTTP_HOST"); v != "" {
		c.HTTPHost = v
	}
	if v := getenv("MCP_HTTP_PORT"); v != "" {
		port, err := strconv.Atoi(v)
		if err != nil || port < 0 || port > 65535 {
			bad("MCP_HTTP_PORT", v, "a port number from 0 to 65535")
		} else {
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
		if level, ok := ParseLevel(v); ok {
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
	if v := getenv("MCP_LOG_FORMAT"); v != "" {
		switch strings.ToLower(v) {
		case "text":
		case "json":
			c.LogJSON = true
		default:
			bad("MCP_LOG_FORMAT", v, "text or json")
		}
	}
	return c, errors.Join(errs...)
}
