package mcpcore

import (
	"log/slog"
	"time"
)

// Config is every setting of a server, as Go values: [ServerOptions.Config]
// holds it. Each field's comment names the environment variable of the
// configuration table (docs/configuration.md) that package
// github.com/seed417024ea/mcpcore/app reads into it. The zero value of
// every field means that setting's default, so the zero Config is the
// configuration of an empty environment; [NewServer] checks it
// ([Config.Check]) and fills in the defaults, and reads no environment of
// its own.
type Config struct {
	// Stateless (MCP_SESSION_MODE=stateless) serves HTTP without sessions;
	// false is stateful.
	Stateless bool
	// LogLevel (MCP_LOG_LEVEL) is the lowest level of the default logger;
	// zero is info. [LevelNotice] is the level MCP_LOG_LEVEL=notice names.
	LogLevel slog.Level
	// LogJSON (MCP_LOG_FORMAT=json) writes the default logger's records as
	// JSON; false is text.
	LogJSON bool
	// StateKeys (MCP_STATE_KEYS, comma-separated) sign the requestState of
	// calls that ask the client for input over several rounds, so that a
	// client can neither alter it nor replay it into another call. The
	// first key signs; every key verifies, so that a key can be rotated
	// without breaking rounds in flight: put the new key first and keep the
	// old one after it for the hour a round may last, then drop it. Each
	// key has at least 32 characters. Replicas of a stateless server behind
	// a load balancer must be given the same keys, or a round answered by
	// another replica is refused; with none, each process draws a random
	// key of its own, which is right for one process only.
	StateKeys []string
	// AllowedOrigins (MCP_ALLOWED_ORIGINS, comma-separated) are the
	// browser origins, such as https://app.example.com, allowed to call
	// the HTTP endpoint from another origin; nil allows none.
	AllowedOrigins []string

	// MaxResultBytes (MCP_MAX_RESULT_BYTES) bounds the bytes of one
	// answer: a tool's result (its text and its structuredContent
	// together), a resource's contents, a prompt's messages, a
	// completion's values. An answer over it is not sent: the client gets
	// an InternalError naming the limit, and the server logs it. Zero
	// means 8 MiB; a negative value sends answers of any size.
	MaxResultBytes int64
	// MaxCallsInFlight (MCP_MAX_CALLS_IN_FLIGHT) bounds the calls in
	// flight in the whole server, over every transport and session mode;
	// zero (or less) means 512.
	MaxCallsInFlight int
	// MaxCallsPerSession (MCP_MAX_CALLS_PER_SESSION) bounds the calls in
	// flight in one session; zero (or less) means 64.
	MaxCallsPerSession int
	// MaxBodyBytes (MCP_HTTP_MAX_BODY_BYTES) bounds the bytes of one HTTP
	// request body; zero (or less) means 4 MiB.
	MaxBodyBytes int64
	// MaxSessions (MCP_HTTP_MAX_SESSIONS) bounds the HTTP sessions open at
	// once (stateful); zero (or less) means 1000.
	MaxSessions int
	// MaxSessionsPerSubject (MCP_HTTP_MAX_SESSIONS_PER_SUBJECT) bounds the
	// sessions one authenticated subject (a token's sub) may hold at once,
	// so that one token holder cannot take every session; zero (or less)
	// means a tenth of MaxSessions, at least 1. Stateful, with auth only.
	MaxSessionsPerSubject int
	// SessionIdleTimeout (MCP_SESSION_IDLE_TIMEOUT) closes a Streamable
	// HTTP session that has seen no request for that long, so that a
	// client that leaves without a word costs nothing for good. Zero
	// means 30 minutes; a negative value keeps idle sessions open.
	SessionIdleTimeout time.Duration
	// StreamKeepAlive (MCP_HTTP_STREAM_KEEPALIVE) is how long an open
	// event stream (a session's GET stream, a long call's answer) may stay
	// quiet before it is sent an SSE comment, which clients ignore, so that
	// a balancer's or proxy's idle timeout never cuts a stream waiting for
	// its next event (the Go SDK sends none). Zero means 15 seconds; a
	// negative value sends none.
	StreamKeepAlive time.Duration

	// TaskAfter (MCP_TASK_AFTER) is how long a call of a tool that may run
	// as a task (see [TaskSupport]) runs before it becomes one, for a
	// tool whose TaskSupport.After is zero: a call that ends sooner is
	// answered at once. Zero means 250 ms.
	TaskAfter time.Duration
	// TaskTTL (MCP_TASK_TTL) is how long a task lives from its creation,
	// for a tool whose TaskSupport.TTL is zero: a task still running then
	// is cancelled and ends failed (ServiceUnavailable, retryable); a
	// finished one stays readable at least a minute after its end. Zero
	// means an hour; at most 24 hours.
	TaskTTL time.Duration
	// TaskPollInterval (MCP_TASK_POLL_INTERVAL) is how often a client is
	// told to poll a task, for a tool whose TaskSupport.PollInterval is
	// zero. Zero means a second.
	TaskPollInterval time.Duration
	// MaxTasks (MCP_MAX_TASKS) bounds the tasks running in this process: a
	// call that would become one more waits for its result as a call
	// does, and a tool that runs only as a task is refused with
	// RateLimited (retryable). Zero (or less) means 256.
	MaxTasks int

	// RateLimit (MCP_RATE_LIMIT, such as 10/s or 600/m) is the quota of
	// each caller on each definition that sets no RateLimit of its own;
	// zero is none.
	RateLimit RateLimit
}
