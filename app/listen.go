package app

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// defaultHTTPPort is the port of a zero [Config].HTTPPort.
const defaultHTTPPort = 3010

// listening is where [App.Run] serves: stdio, or HTTP on addr.
type listening struct {
	http bool
	addr string // host:port, over HTTP
}

// listening resolves where c serves and checks it (see where), with the
// errors ConfigFromEnv gives.
func (c Config) listening(authed bool) (listening, error) {
	l, err := c.where(authed)
	if err != nil {
		return listening{}, badConfig(err)
	}
	return l, nil
}

// where resolves where c serves, giving the host and port their defaults,
// and checks it: a port out of range, and an HTTP endpoint beyond loopback
// that authenticates no one (authed says whether the server has an
// HTTPAuth) unless AllowUnauthenticated, are refused.
func (c Config) where(authed bool) (listening, error) {
	host, port := c.HTTPHost, c.HTTPPort
	if host == "" {
		host = "127.0.0.1"
	}
	switch port {
	case AnyPort:
		port = 0
	case 0:
		port = defaultHTTPPort
	}
	var errs []error
	if port < 0 || port > 65535 {
		errs = append(errs, fmt.Errorf("MCP_HTTP_PORT=%d: want a port number from 0 to 65535", port))
	}
	http := c.Transport == TransportHTTP
	if http && !authed && !c.AllowUnauthenticated && !isLoopback(host) {
		errs = append(errs, fmt.Errorf("MCP_AUTH_MODE=none on MCP_HTTP_HOST=%q would let anyone who reaches the port call every tool: "+
			"set MCP_AUTH_MODE to jwt or oauth, bind to 127.0.0.1, or set MCP_AUTH_ALLOW_UNAUTHENTICATED=true "+
			"if something in front of the server authenticates", host))
	}
	return listening{http: http, addr: net.JoinHostPort(host, strconv.Itoa(port))}, errors.Join(errs...)
}

// isLoopback reports whether host only listens on this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
