// Package app runs an mcpcore server as a program: it reads the
// environment variables of the configuration table (docs/configuration.md)
// with [ConfigFromEnv], builds the OpenTelemetry SDK providers the OTEL_*
// variables ask for and installs them as OpenTelemetry's globals, opens
// the Redis of MCP_REDIS_URL with the opener the program gives, keeps the
// secrets of the environment out of everything the server sends, logs and
// exports, and runs the server until SIGINT or SIGTERM ([Main]).
//
// The root package reads no environment and links none of this: a server
// built with mcpcore.NewServer gets Go values only. The heavy parts are
// modules of their own that a program passes as values, so that a server
// that does not use them links none of their code:
//
//	app.Main(info, &app.Options{
//		OpenRedis: redis.Open,  // github.com/seed417024ea/mcpcore/redis: MCP_REDIS_URL
//		OTLP:      otlp.HTTP{}, // github.com/seed417024ea/mcpcore/otlp: OTEL_*_EXPORTER=otlp
//	}, defs...)
//
// A program given MCP_REDIS_URL or asked for OTLP without them refuses to
// start, and says what to add.
package app
