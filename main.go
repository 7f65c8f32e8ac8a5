package mcpcore

import (
	"context"
	"fmt"
	"os"
)

// Main is the main function of a server program, the one place its
// environment is read: it reads the configuration with [ConfigFromEnv]
// (os.Getenv) into opts.Config, replacing what opts.Config held, builds
// the server with [NewServer] and serves it with [Server.Run] until the
// process receives SIGINT or SIGTERM. On a bad configuration or a
// definition that does not build, it prints the error, which names each
// problem, to stderr and exits with status 1; so it does when Run fails.
// opts itself is not changed; nil means the zero ServerOptions.
//
// A program that sets some settings in Go, or reads them from elsewhere,
// calls ConfigFromEnv itself (or not at all), then NewServer and Run.
func Main(info Info, opts *ServerOptions, defs ...Definition) {
	var o ServerOptions
	if opts != nil {
		o = *opts
	}
	cfg, err := ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	o.Config = cfg
	srv, err := NewServer(info, &o, defs...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := srv.Run(context.Background()); err != nil {
		srv.Logger().Error("mcpcore: server stopped with an error", "error", err)
		os.Exit(1)
	}
}
