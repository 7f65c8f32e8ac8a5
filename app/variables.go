package app

import (
	"fmt"
	"strings"
)

// A variable is one setting the environment gives a server: its name, its
// default as the documentation says it, and what it takes and does.
type variable struct {
	Name    string
	Default string
	Doc     string
}

// variables are every variable a server reads, in the order of the
// documentation's table (docs/configuration.md), which [markdown] writes
// from them: [ConfigFromEnv] reads exactly these, and the variables
// MCP_SECRET_VARS names (a test checks it), and nothing else reads the
// environment. The OpenTelemetry SDK reads a few more of the process
// environment itself (OTEL_RESOURCE_ATTRIBUTES,
// OTEL_METRIC_EXPORT_INTERVAL, the OTLP exporters' timeouts, compression
// and certificates), as its own documentation says.
var variables = []variable{
	{"MCP_TRANSPORT_TYPE", "`stdio`", "`stdio` or `http` (Streamable HTTP on `/mcp`)"},
	{"MCP_HTTP_HOST", "`127.0.0.1`", "HTTP listen host"},
	{"MCP_HTTP_PORT", "`3010`", "HTTP listen port, 0 to 65535"},
	{"MCP_SESSION_MODE", "`stateful`", "`stateful` sessions or `stateless`"},
	{"MCP_LOG_LEVEL", "`info`", "`debug`, `info`, `notice`, `warning`, `error` ([which failure logs at which level](observability.md#the-level-of-a-failure))"},
	{"MCP_LOG_FORMAT", "`text`", "`text` or `json`; logs go to stderr"},
	{"MCP_STATE_KEYS", "a random key per process", "comma-separated keys of at least 32 characters that sign a multi-round call's `requestState`, the current key first, previous ones after it; every replica of a stateless server needs the same keys ([several replicas](protocol.md#multi-round-calls-and-replicas))"},
	{"MCP_ALLOWED_ORIGINS", "none", "comma-separated browser origins (`https://app.example.com`) allowed to call `/mcp` from another origin ([origins](http.md#origins))"},
	{"MCP_MAX_RESULT_BYTES", "8 MiB", "the most bytes of one answer, on every transport ([what is sent instead](errors-and-contracts.md#what-reaches-the-wire-and-what-stays-in-the-logs))"},
	{"MCP_MAX_CALLS_IN_FLIGHT", "512", "calls in flight in the whole server, stateless mode included"},
	{"MCP_MAX_CALLS_PER_SESSION", "64", "calls in flight in one session"},
	{"MCP_HTTP_MAX_BODY_BYTES", "4 MiB", "the most bytes of one HTTP request body"},
	{"MCP_HTTP_MAX_SESSIONS", "1000", "sessions open at once (stateful)"},
	{"MCP_HTTP_MAX_SESSIONS_PER_SUBJECT", "a tenth of `MCP_HTTP_MAX_SESSIONS`, at least 1", "sessions one token subject may hold at once (stateful, with authentication)"},
	{"MCP_SESSION_IDLE_TIMEOUT", "30m", "a session with no request open for that long is closed"},
	{"MCP_HTTP_STREAM_KEEPALIVE", "15s", "how long an open event stream may stay quiet before it is sent an SSE comment, so that a balancer's idle timeout does not cut it; `off` sends none"},
	{"MCP_TASK_AFTER", "250ms", "how long a call of a tool that may run as a task runs before the client is answered with a task to poll, for a tool that sets no `After` of its own"},
	{"MCP_TASK_TTL", "1h", "how long a task lives from its creation, at most 24h: one still running then ends `failed`, retryable; a finished one stays readable at least a minute"},
	{"MCP_TASK_POLL_INTERVAL", "1s", "how often a client is told to poll a task"},
	{"MCP_MAX_TASKS", "256", "tasks running at once in one process; past it, a call that may run as a task is answered when it ends, and one that must is refused as retryable"},
	{"MCP_REDIS_URL", "none", "`redis://[user:password@]host:6379/0` (`rediss://` for TLS): the Redis that replicas share notifications and rate limits through; the program passes `redis.Open` of module `github.com/seed417024ea/mcpcore/redis` as `app.Options.OpenRedis` ([several replicas](replicas.md))"},
	{"MCP_RATE_LIMIT", "none", "the quota of each caller on each tool, resource and prompt without a `RateLimit` of its own, as calls per a period: `10/s`, `600/m`, `100/30s`; counted for the whole fleet with `MCP_REDIS_URL` ([rate limits](replicas.md#rate-limits))"},
	{"MCP_SECRET_VARS", "none", "names of variables, separated by commas, whose values are secrets the program holds (an upstream's API key): masked wherever they would leave the process, as the keys of the server's own configuration are ([secrets the server knows](errors-and-contracts.md#secrets-the-server-knows)); each must be set, with at least 8 bytes"},
	{"MCP_AUTH_MODE", "`none`", "`none` (loopback hosts only), `jwt` (HS256 or RS256 bearer JWTs) or `oauth` (JWTs of an OAuth 2.1 authorization server); see [Authentication](http.md#authentication)"},
	{"MCP_AUTH_ALLOW_UNAUTHENTICATED", "`false`", "`true` lets mode `none` serve on a host other than loopback, when something in front authenticates"},
	{"MCP_AUTH_SECRET_KEY", "none", "`jwt`: the HS256 secret, at least 32 characters"},
	{"MCP_AUTH_PUBLIC_KEY", "none", "`jwt`: a PEM RSA public key that verifies RS256 tokens"},
	{"OAUTH_ISSUER_URL", "none", "`oauth`: the issuer (required); `jwt`: required as `iss` when set"},
	{"OAUTH_AUDIENCE", "`MCP_SERVER_RESOURCE_IDENTIFIER`", "required as `aud` when it or its default is set (`oauth`: one of them is required)"},
	{"OAUTH_JWKS_URI", "`<issuer>/.well-known/jwks.json`", "`oauth`: where the issuer's keys are fetched"},
	{"MCP_SERVER_RESOURCE_IDENTIFIER", "none", "the server's own resource URI (`https://mcp.example.com/mcp`), published in the protected-resource metadata"},
	{"MCP_AUTH_REQUIRED_SCOPES", "none", "scopes, separated by spaces or commas, every request needs"},
	{"OTEL_SDK_DISABLED", "`false`", "`true` exports nothing"},
	{"OTEL_TRACES_EXPORTER", "none, or `otlp` when an OTLP endpoint is set", "comma-separated: `otlp` (HTTP/protobuf; the program passes `otlp.HTTP{}` of module `github.com/seed417024ea/mcpcore/otlp` as `app.Options.OTLP`), `console` (stderr), `none`"},
	{"OTEL_METRICS_EXPORTER", "none, or `otlp` when an OTLP endpoint is set", "as `OTEL_TRACES_EXPORTER`, for metrics"},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", "none", "where OTLP goes; `/v1/traces` and `/v1/metrics` are appended"},
	{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "none", "where OTLP traces go, as it is"},
	{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "none", "where OTLP metrics go, as it is"},
	{"OTEL_EXPORTER_OTLP_PROTOCOL", "`http/protobuf`", "only `http/protobuf` is served; anything else stops the server"},
	{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "`OTEL_EXPORTER_OTLP_PROTOCOL`", "as `OTEL_EXPORTER_OTLP_PROTOCOL`, for traces"},
	{"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "`OTEL_EXPORTER_OTLP_PROTOCOL`", "as `OTEL_EXPORTER_OTLP_PROTOCOL`, for metrics"},
	{"OTEL_EXPORTER_OTLP_HEADERS", "none", "`k1=v1,k2=v2` headers of every OTLP request, values percent-encoded"},
	{"OTEL_EXPORTER_OTLP_TRACES_HEADERS", "none", "headers of OTLP traces, added to and over `OTEL_EXPORTER_OTLP_HEADERS`"},
	{"OTEL_EXPORTER_OTLP_METRICS_HEADERS", "none", "headers of OTLP metrics, added to and over `OTEL_EXPORTER_OTLP_HEADERS`"},
	{"OTEL_SERVICE_NAME", "the server's `Info.Name`", "`service.name` of what is exported"},
}

// markdown is the table of [variables], as the documentation shows it.
func markdown() string {
	var b strings.Builder
	b.WriteString("| Variable | Default | Meaning |\n|---|---|---|\n")
	for _, v := range variables {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", v.Name, v.Default, v.Doc)
	}
	return b.String()
}
