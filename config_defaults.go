package mcpcore

import (
	"slices"
	"time"
)

// The defaults of the settings of [Config], which the configuration table
// (docs/configuration.md) states.
const (
	defaultMaxResultBytes = 8 << 20
	// defaultMaxCallsInFlight is what a server of two cores holds with
	// room to spare; without a bound, one client could pile up as many
	// calls as it liked (over several sessions, or in stateless mode).
	defaultMaxCallsInFlight   = 512
	defaultMaxCallsPerSession = 64
	defaultMaxBodyBytes       = 4 << 20
	defaultMaxSessions        = 1000
	defaultSessionIdle        = 30 * time.Minute
	// defaultStreamKeepAlive is below the idle timeouts of common
	// balancers and proxies (haproxy's and nginx's defaults are 30 s and
	// more, AWS's ALB 60 s).
	defaultStreamKeepAlive = 15 * time.Second
	// A quick call still answers at once; a slow one frees its request
	// within a quarter of a second.
	defaultTaskAfter        = 250 * time.Millisecond
	defaultTaskTTL          = time.Hour
	defaultTaskPollInterval = time.Second
	defaultMaxTasks         = 256
)

// withDefaults gives every zero setting of c its default, the one place
// they are written: a limit of zero or less takes its default (a limit of
// no calls or no bytes would be a server that serves nothing), while a
// negative MaxResultBytes (no bound), SessionIdleTimeout (never) and
// StreamKeepAlive (none) stay as they are.
func (c Config) withDefaults() Config {
	c.AllowedOrigins = slices.Clone(c.AllowedOrigins)
	c.StateKeys = slices.Clone(c.StateKeys)
	orDefault(&c.MaxBodyBytes, defaultMaxBodyBytes)
	orDefault(&c.MaxSessions, defaultMaxSessions)
	// A tenth of the cap, at least 1, so that at least ten subjects can
	// hold sessions at once.
	orDefault(&c.MaxSessionsPerSubject, max(1, c.MaxSessions/10))
	orDefault(&c.MaxCallsPerSession, defaultMaxCallsPerSession)
	orDefault(&c.MaxCallsInFlight, defaultMaxCallsInFlight)
	if c.MaxResultBytes == 0 {
		c.MaxResultBytes = defaultMaxResultBytes
	}
	if c.SessionIdleTimeout == 0 {
		c.SessionIdleTimeout = defaultSessionIdle
	}
	if c.StreamKeepAlive == 0 {
		c.StreamKeepAlive = defaultStreamKeepAlive
	}
	if c.TaskAfter <= 0 {
		c.TaskAfter = defaultTaskAfter
	}
	if c.TaskTTL <= 0 {
		c.TaskTTL = defaultTaskTTL
	}
	if c.TaskPollInterval <= 0 {
		c.TaskPollInterval = defaultTaskPollInterval
	}
	orDefault(&c.MaxTasks, defaultMaxTasks)
	return c
}

// orDefault gives a limit its default when it is zero or less.
func orDefault[T int | int64](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
