package app

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/config"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

// secrets are the secrets only the environment holds, for the server's
// Secrets: the password of RedisURL, the values of MCP_SECRET_VARS and the
// credentials in the OTLP exporters' headers. The server masks each in
// every byte it sends, in every record of its logger and in its spans; it
// keeps those of its own settings itself. A value that cannot be masked
// is reported by where it came from, never by its text, and left out.
func (c Config) secrets() ([]string, error) {
	var held []string
	var errs []error
	keep := func(v string, where func() string) {
		if err := redact.CheckSecret(v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where(), err))
			return
		}
		held = append(held, v)
	}
	if p := config.RedisPassword(c.RedisURL); p != "" {
		keep(p, func() string { return "MCP_REDIS_URL: its password" })
	}
	for i, v := range c.Secrets {
		keep(v, func() string { return fmt.Sprintf("MCP_SECRET_VARS: secret %d of %d", i+1, len(c.Secrets)) })
	}
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
				keep(v, func() string { return h.variable + ": header " + name })
			}
		}
	}
	return held, errors.Join(errs...)
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
