package mcpcore

import (
	"errors"
	"fmt"
	"slices"

	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// minStateKeyLen is the fewest characters of a key of MCP_STATE_KEYS: 32
// bytes, the size of the HMAC-SHA256 key they make.
const minStateKeyLen = 32

// Check reports every setting of c a server cannot run with, each naming
// its variable: a state key under 32 characters or repeated, a rate limit
// of no calls, a task TTL over 24 hours, an allowed origin that is not one. [NewServer] checks it;
// so does package app's ConfigFromEnv, with the other settings of the
// environment. The error never holds a key.
func (c Config) Check() error {
	var errs []error
	for i, k := range c.StateKeys {
		// The key itself is never written into the error: it is a secret.
		switch first := slices.Index(c.StateKeys, k); {
		case len(k) < minStateKeyLen:
			errs = append(errs, fmt.Errorf("MCP_STATE_KEYS: key %d of %d has %d characters; each needs at least %d", i+1, len(c.StateKeys), len(k), minStateKeyLen))
		case first < i:
			errs = append(errs, fmt.Errorf("MCP_STATE_KEYS: key %d of %d repeats key %d", i+1, len(c.StateKeys), first+1))
		}
	}
	if err := c.RateLimit.Check(); err != nil {
		errs = append(errs, fmt.Errorf("MCP_RATE_LIMIT: %w", err))
	}
	errs = append(errs, httpserve.CheckOrigins(c.AllowedOrigins))
	if c.TaskTTL > maxTaskTTL {
		errs = append(errs, fmt.Errorf("MCP_TASK_TTL: %s is over the most a task may live, %s", c.TaskTTL, maxTaskTTL))
	}
	return errors.Join(errs...)
}

// badConfig is the error of a configuration a server cannot run with.
func badConfig(err error) error {
	return mcperr.New(mcperr.CodeConfigurationError, "mcpcore: bad configuration: "+err.Error(), mcperr.WithCause(err))
}
