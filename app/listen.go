package app

import (
	"github.com/seed417024ea/mcpcore/internal/config"
)

// listening is where [App.Run] serves: stdio, or HTTP on addr.
type listening struct {
	http bool
	addr string // host:port, over HTTP
}

// listening resolves where c serves and checks it: a port out of range,
// and an HTTP endpoint beyond loopback that authenticates no one (authed
// says whether the server has an HTTPAuth) unless AllowUnauthenticated,
// are refused, with the errors ConfigFromEnv gives.
func (c Config) listening(authed bool) (listening, error) {
	r, err := config.Resolve(config.Config{
		Transport: config.Transport(c.Transport), HTTPHost: c.HTTPHost, HTTPPort: c.HTTPPort,
		Auth: config.AuthConfig{AllowUnauthenticated: c.AllowUnauthenticated || authed},
	})
	if err != nil {
		return listening{}, badConfig(err)
	}
	return listening{http: r.Transport == config.HTTP, addr: r.Addr()}, nil
}
