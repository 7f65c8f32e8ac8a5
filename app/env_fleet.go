package app

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

// readFleet reads the variables of a fleet of replicas: MCP_REDIS_URL
// and MCP_RATE_LIMIT.
func (e *env) readFleet(c *Config) {
	if v := e.getenv("MCP_REDIS_URL"); v != "" {
		if err := checkRedisURL(v); err != nil {
			e.errs = append(e.errs, err)
		} else {
			c.RedisURL = v
		}
	}
	if v := e.getenv("MCP_RATE_LIMIT"); v != "" {
		l, err := parseRateLimit(v)
		if err != nil {
			e.errs = append(e.errs, fmt.Errorf("MCP_RATE_LIMIT=%q: %w", v, err))
		} else {
			c.RateLimit = l
		}
	}
}

// checkRedisURL checks the scheme of a Redis URL; the opener checks the
// rest. The URL itself is never written into the error: it may hold a
// password.
func checkRedisURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return errors.New("MCP_REDIS_URL: want a URL such as redis://host:6379/0 (or rediss:// for TLS), with a scheme and a host; the value given is not repeated here, as it may hold a password")
	}
	return nil
}

// errRateLimit is what a quota must look like.
var errRateLimit = errors.New("want calls per a period, such as 10/s, 600/m or 100/30s")

// parseRateLimit reads a quota written as calls per a period: "10/s",
// "600/m", "5000/h", or with a duration, "100/30s".
func parseRateLimit(v string) (mcpcore.RateLimit, error) {
	calls, per, ok := strings.Cut(strings.TrimSpace(v), "/")
	n, err := strconv.Atoi(strings.TrimSpace(calls))
	if !ok || err != nil || n < 1 {
		return mcpcore.RateLimit{}, errRateLimit
	}
	var d time.Duration
	switch per = strings.TrimSpace(per); per {
	case "s":
		d = time.Second
	case "m":
		d = time.Minute
	case "h":
		d = time.Hour
	default:
		if d, err = time.ParseDuration(per); err != nil || d <= 0 {
			return mcpcore.RateLimit{}, errRateLimit
		}
	}
	return mcpcore.RateLimit{Calls: n, Per: d}, nil
}

// readSecrets reads MCP_SECRET_VARS, the names of the variables whose
// values are secrets (separated by commas or spaces), and those
// variables. A name whose variable is unset, or whose value is too short
// to mask, is reported and left out: the operator meant it to be masked,
// and a typo must not leave it in the clear. The error names the
// variable, never its value.
func (e *env) readSecrets(c *Config) {
	names := strings.FieldsFunc(e.getenv("MCP_SECRET_VARS"), func(r rune) bool { return r == ',' || r == ' ' })
	for _, name := range names {
		v := e.getenv(name)
		if v == "" {
			e.errs = append(e.errs, fmt.Errorf("MCP_SECRET_VARS names %s, which is not set: name only variables that hold a secret", name))
			continue
		}
		if err := redact.CheckSecret(v); err != nil {
			e.errs = append(e.errs, fmt.Errorf("%s (in MCP_SECRET_VARS): %w", name, err))
			continue
		}
		c.Secrets = append(c.Secrets, v)
	}
}
