package app

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// secrets are the secrets only the environment holds, for the server's
// Secrets: the password of RedisURL, the values of MCP_SECRET_VARS and the
// credentials in the OTLP exporters' headers. The server masks each in
// every byte it sends, in every record of its logger and in its spans; it
// keeps those of its own settings itself. A value that cannot be masked
// is reported by where it came from, never by its text, and left out.
func (c Config) secrets() ([]string, error) {
	var k keeper
	c.keepOwnSecrets(&k)
	t := c.Telemetry
	for _, h := range []struct {
		variable string
		headers  map[string]string
	}{{"OTEL_EXPORTER_OTLP_HEADERS", t.Headers}, {"OTEL_EXPORTER_OTLP_TRACES_HEADERS", t.TracesHeaders}, {"OTEL_EXPORTER_OTLP_METRICS_HEADERS", t.MetricsHeaders}} {
		for _, name := range slices.Sorted(maps.Keys(h.headers)) {
			if !redact.Key(name) {
				continue
			}
			for _, v := range credentials(h.headers[name]) {
				k.keep(v, func() string { return h.variable + ": header " + name })
			}
		}
	}
	return k.held, errors.Join(k.errs...)
}

// keepOwnSecrets keeps the secrets of the MCP_* variables: the password
// of RedisURL and the values of MCP_SECRET_VARS. ConfigFromEnv checks
// them too; the OTLP headers are New's to check, with the exporters.
func (c Config) keepOwnSecrets(k *keeper) {
	if p := redisPassword(c.RedisURL); p != "" {
		k.keep(p, func() string { return "MCP_REDIS_URL: its password" })
	}
	for i, v := range c.Secrets {
		k.keep(v, func() string { return fmt.Sprintf("MCP_SECRET_VARS: secret %d of %d", i+1, len(c.Secrets)) })
	}
}

// A keeper collects secrets, and the errors of those that cannot be
// masked.
type keeper struct {
	held []string
	errs []error
}

// keep keeps v, or reports why it cannot be masked by where it came from.
func (k *keeper) keep(v string, where func() string) {
	if err := redact.CheckSecret(v); err != nil {
		k.errs = append(k.errs, fmt.Errorf("%s: %w", where(), err))
		return
	}
	k.held = append(k.held, v)
}

// redisPassword is the password of a Redis URL, or "".
func redisPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// credentials are the secrets of a header's value: the whole of it, and,
// for "<scheme> <credentials>" (Bearer, Basic, ...), what follows the
// scheme, which is sent and logged without it too.
func credentials(value string) []string {
	value = strings.TrimSpace(value)
	if f := strings.Fields(value); len(f) == 2 {
		return []string{value, f[1]}
	}
	return []string{value}
}
