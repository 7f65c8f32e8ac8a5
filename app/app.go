package app

import (
	"context"
	"log/slog"
	"os"
	"slices"

	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/seed417024ea/mcpcore"
)

// An App is a server with what [New] built for it from the environment:
// the telemetry providers and the parts shared with the fleet, which it
// stops after the server.
type App struct {
	srv    *mcpcore.Server
	cfg    Config
	listen listening
	tel    *telemetry
	shared *opened
	// sharing names what the server shares with its fleet, for the
	// start-up line.
	sharing string
	// endAuth stops the refresh of an OAuth issuer's keys.
	endAuth context.CancelFunc
}

// New builds the server of cfg: it adds the secrets of cfg (the Redis
// password, the values of MCP_SECRET_VARS, the credentials in the OTLP
// headers) to the server's Secrets, builds the providers Config.Telemetry asks for and opens
// Config.RedisURL with opts.OpenRedis where opts.Server gives none, then
// builds the server with mcpcore.NewServer on opts.Server with cfg.Config,
// and installs the providers it built as OpenTelemetry's globals (see
// [Options].KeepOTelGlobals). It fails, with code ConfigurationError, on
// a setting it cannot serve, naming it (and what to add to opts for
// MCP_REDIS_URL or OTLP): an HTTP endpoint beyond loopback without an
// HTTPAuth is one, unless Config.AllowUnauthenticated. It fails with
// mcpcore.NewServer's errors too; what it opened is then closed again.
func New(info mcpcore.Info, cfg Config, opts *Options, defs ...mcpcore.Definition) (*App, error) {
	if opts == nil {
		opts = &Options{}
	}
	var so mcpcore.ServerOptions
	if opts.Server != nil {
		so = *opts.Server
	}
	so.Config = cfg.Config
	secrets, err := cfg.secrets()
	if err != nil {
		return nil, badConfig(err)
	}
	so.Secrets = append(slices.Clone(so.Secrets), secrets...)
	if so.Logger == nil {
		// The server's own default, made here for what opens before it.
		so.Logger = slog.New(mcpcore.NewLogHandler(os.Stderr, &mcpcore.LogOptions{Level: cfg.LogLevel, JSON: cfg.LogJSON}))
	}
	a := &App{cfg: cfg, endAuth: func() {}}
	if err = a.buildAuth(cfg, &so); err != nil {
		return nil, err
	}
	if a.listen, err = cfg.listening(so.HTTPAuth != nil); err != nil {
		a.endAuth()
		return nil, err
	}
	if a.tel, err = buildTelemetry(info, cfg, opts, &so); err != nil {
		a.endAuth()
		return nil, err
	}
	// A server that will never run stops what was started for it.
	if a.shared, err = openShared(info, cfg, opts, &so, a.tel.meter); err != nil {
		a.endAuth()
		_ = a.tel.built.Shutdown(context.Background())
		return nil, err
	}
	a.sharing = describeShared(so.Bus, so.Limiter)
	if a.srv, err = mcpcore.NewServer(info, &so, defs...); err != nil {
		a.endAuth()
		_ = a.shared.close()
		_ = a.tel.built.Shutdown(context.Background())
		return nil, err
	}
	a.tel.built.LogErrors(a.srv.Logger())
	if !opts.KeepOTelGlobals {
		a.tel.built.InstallGlobals(propagator)
	}
	return a, nil
}

// Server returns the server New built.
func (a *App) Server() *mcpcore.Server { return a.srv }

// TracerProvider returns the provider the server's spans go to:
// [Options].TracerProvider, the one New built from the environment, or,
// with neither, a no-op one. A service can start its spans from it when
// the OpenTelemetry globals are not the server's.
func (a *App) TracerProvider() trace.TracerProvider {
	if a.tel.tracer == nil {
		return tracenoop.NewTracerProvider()
	}
	return a.tel.tracer
}

// MeterProvider returns the provider the server's metrics go to, as
// [App.TracerProvider] says for spans.
func (a *App) MeterProvider() metric.MeterProvider {
	if a.tel.meter == nil {
		return metricnoop.NewMeterProvider()
	}
	return a.tel.meter
}

// Close shuts the server down (mcpcore.Server.Shutdown, within ctx), then
// closes the Bus and Limiter New opened and flushes and stops the
// providers it built, within ctx: their failures are logged, at warning.
// [App.Run] calls it; a program that serves the server otherwise calls it
// when done.
func (a *App) Close(ctx context.Context) {
	log := a.srv.Logger()
	_ = a.srv.Shutdown(ctx)
	a.endAuth()
	if err := a.shared.close(); err != nil {
		log.Warn("mcpcore: closing the shared parts of the fleet failed", "error", err)
	}
	if err := a.tel.built.Shutdown(ctx); err != nil {
		log.Warn("mcpcore: flushing telemetry failed", "error", err.Error())
	}
}
