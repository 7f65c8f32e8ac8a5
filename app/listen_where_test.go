package app

import (
	"strings"
	"testing"
)

// TestWhere: a Config serves where the table's defaults say when its
// host and port are zero; AnyPort asks for a free port; a port out of
// range is refused, naming MCP_HTTP_PORT.
func TestWhere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  Config
		want listening
	}{
		{Config{}, listening{addr: "127.0.0.1:3010"}},
		{Config{Transport: TransportHTTP, HTTPHost: "0.0.0.0", HTTPPort: 8080, AllowUnauthenticated: true}, listening{http: true, addr: "0.0.0.0:8080"}},
		{Config{Transport: TransportHTTP, HTTPHost: "::1"}, listening{http: true, addr: "[::1]:3010"}},
		{Config{Transport: TransportHTTP, HTTPPort: AnyPort}, listening{http: true, addr: "127.0.0.1:0"}},
	} {
		if got, err := tc.cfg.where(false); err != nil || got != tc.want {
			t.Errorf("%+v.where() = %+v, %v; want %+v", tc.cfg, got, err, tc.want)
		}
	}
	for _, port := range []int{70000, -2} {
		if _, err := (Config{HTTPPort: port}).where(false); err == nil || !strings.Contains(err.Error(), "MCP_HTTP_PORT=") {
			t.Errorf("port %d: where() = %v, want an error naming MCP_HTTP_PORT", port, err)
		}
	}
}
