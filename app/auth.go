package app

import (
	"context"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcphttp"
)

// buildAuth gives so the bearer authentication of Config.Auth
// (MCP_AUTH_MODE jwt or oauth), where so has none; the refresh of an OAuth
// issuer's keys runs until the app closes.
func (a *App) buildAuth(cfg Config, so *mcpcore.ServerOptions) error {
	if so.HTTPAuth != nil || cfg.Auth.Mode == "" || cfg.Auth.Mode == mcphttp.AuthNone {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	auth, err := mcphttp.NewAuth(ctx, cfg.Auth, so.Logger)
	if err != nil {
		cancel()
		return err
	}
	a.endAuth, so.HTTPAuth = cancel, auth
	return nil
}
