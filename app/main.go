package app

import (
	"context"
	"fmt"
	"os"

	"github.com/seed417024ea/mcpcore"
)

// Main is the main function of a server program, the one place its
// environment is read: it reads the configuration with [ConfigFromEnv]
// (os.Getenv), builds the server with [New] and runs it with [App.Run]
// until the process receives SIGINT or SIGTERM. On a bad configuration or
// a definition that does not build, it prints the error, which names each
// problem, to stderr and exits with status 1; so it does when Run fails.
// opts is not changed; nil means the zero Options.
//
// A program that sets some settings in Go, or reads them from elsewhere,
// calls ConfigFromEnv itself (or not at all), then New and Run.
func Main(info mcpcore.Info, opts *Options, defs ...mcpcore.Definition) {
	cfg, err := ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	a, err := New(info, cfg, opts, defs...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := a.Run(context.Background()); err != nil {
		a.Server().Logger().Error("mcpcore: server stopped with an error", "error", err)
		os.Exit(1)
	}
}
