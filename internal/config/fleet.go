package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// parseFleet reads the variables of a fleet of replicas: MCP_REDIS_URL
// and MCP_RATE_LIMIT.
func parseFleet(c *Config, getenv func(string) string, errs []error) []error {
	if v := getenv("MCP_REDIS_URL"); v != "" {
		if err := checkRedisURL(v); err != nil {
			errs = append(errs, err)
		} else {
			c.RedisURL = v
		}
	}
	if v := getenv("MCP_RATE_LIMIT"); v != "" {
		l, err := ParseRateLimit(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("MCP_RATE_LIMIT=%q: %w", v, err))
		} else {
			c.RateLimit = l
		}
	}
	return errs
}

// checkRedisURL checks the scheme of a Redis URL; the opener checks the
// rest. The URL itself is never written into the error: it may hold a
// password.
func checkRedisURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return fmt.Errorf("MCP_REDIS_URL: want a URL such as redis://host:6379/0 (or rediss:// for TLS), with a scheme and a host; the value given is not repeated here, as it may hold a password")
	}
	return nil
}

// ParseRateLimit reads a quota written as calls per a period: "10/s",
// "600/m", "5000/h", or with a duration, "100/30s".
func ParseRateLimit(v string) (fleet.Limit, error) {
	calls, per, ok := strings.Cut(strings.TrimSpace(v), "/")
	n, err := strconv.Atoi(strings.TrimSpace(calls))
	if !ok || err != nil || n < 1 {
		return fleet.Limit{}, fmt.Errorf("want calls per a period, such as 10/s, 600/m or 100/30s")
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
			return fleet.Limit{}, fmt.Errorf("want calls per a period, such as 10/s, 600/m or 100/30s")
		}
	}
	return fleet.Limit{Calls: n, Per: d}, nil
}
