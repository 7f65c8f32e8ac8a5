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

// keepSecrets hands the process's mask (internal/redact) the secrets only
// the environment holds: the password of RedisURL, the values of
// MCP_SECRET_VARS and the credentials in the OTLP exporters' headers.
// From then on each is masked in every byte the server sends, in every
// record of its logger and in its spans. It reports each value it cannot
// keep by where it came from, never by its text; the others are kept all
// the same. The server keeps those of its own settings itself.
func (c Config) keepSecrets() error {
	var errs []error
	if p := config.RedisPassword(c.RedisURL); p != "" {
		if err := redact.Keep(p); err != nil {
			errs = append(errs, fmt.Errorf("MCP_REDIS_URL: its password: %w", err))
		}
	}
	for i, v := range c.Secrets {
		if err := redact.Keep(v); err != nil {
			errs = append(errs, fmt.Errorf("MCP_SECRET_VARS: secret %d of %d: %w", i+1, len(c.Secrets), err))
		}
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
				if err := redact.Keep(v); err != nil {
					errs = append(errs, fmt.Errorf("%s: header %s: %w", h.variable, name, err))
				}
			}
		}
	}
	return errors.Join(errs...)
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
