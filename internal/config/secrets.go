package config

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// parseSecrets reads MCP_SECRET_VARS, the names of the variables whose
// values are secrets (separated by commas or spaces), and those
// variables. A name whose variable is unset, or whose value is too short
// to mask, is reported and left out: the operator meant it to be masked,
// and a typo must not leave it in the clear. The error names the
// variable, never its value.
func parseSecrets(c *Config, getenv func(string) string, errs []error) []error {
	names := strings.FieldsFunc(getenv("MCP_SECRET_VARS"), func(r rune) bool { return r == ',' || r == ' ' })
	for _, name := range names {
		v := getenv(name)
		if v == "" {
			errs = append(errs, fmt.Errorf("MCP_SECRET_VARS names %s, which is not set: name only variables that hold a secret", name))
			continue
		}
		if err := redact.CheckSecret(v); err != nil {
			errs = append(errs, fmt.Errorf("%s (in MCP_SECRET_VARS): %w", name, err))
			continue
		}
		c.Secrets = append(c.Secrets, v)
	}
	return errs
}

// checkSecrets reports the secrets of c that cannot be masked (see
// redact.CheckSecret), by the names of their variables. The key of mode
// jwt and the state keys have rules of their own, stricter.
func checkSecrets(c Config, errs []error) []error {
	for i, v := range c.Secrets {
		if err := redact.CheckSecret(v); err != nil {
			errs = append(errs, fmt.Errorf("MCP_SECRET_VARS: secret %d of %d: %w", i+1, len(c.Secrets), err))
		}
	}
	if p := RedisPassword(c.RedisURL); p != "" {
		if err := redact.CheckSecret(p); err != nil {
			errs = append(errs, fmt.Errorf("MCP_REDIS_URL: its password: %w", err))
		}
	}
	return errs
}

// ServerSecrets returns the secrets of a resolved c that a server's own
// settings hold: the HS256 key of mode jwt (another mode does not use it)
// and the state keys, for the server to mask wherever they would appear.
func (c Config) ServerSecrets() []string {
	var held []string
	if c.Auth.Mode == AuthJWT && c.Auth.SecretKey != "" {
		held = append(held, c.Auth.SecretKey)
	}
	return append(held, c.StateKeys...)
}

// RedisPassword is the password of a Redis URL, or "": a secret of the
// environment, which package app keeps.
func RedisPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}
