package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// A server given Open as ServerOptions.OpenRedis opens MCP_REDIS_URL as
// it starts: its quotas count in Redis, under the server's name, and
// Shutdown closes the connection it opened.
func TestServerOpensTheRedisURL(t *testing.T) {
	m := startRedis(t)
	cfg, err := mcpcore.ConfigFromEnv(func(k string) string {
		return map[string]string{"MCP_REDIS_URL": "redis://" + m.Addr() + "/0"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	forecast := mcpcore.Tool[struct{}, struct{}]{
		Name: "forecast", Description: "Forecasts the weather.",
		RateLimit: mcpcore.RateLimit{Calls: 1, Per: time.Hour},
		Handler:   func(*mcpcore.Context, struct{}) (struct{}, error) { return struct{}{}, nil },
	}
	c := mcptest.StartWith(t, mcpcore.Info{Name: "weather"}, &mcptest.Options{
		Server: &mcpcore.ServerOptions{Config: cfg, OpenRedis: Open},
	}, forecast)
	if res := c.CallTool("forecast", map[string]any{}); res.IsError {
		t.Fatalf("the first call failed: %v", res.Content)
	}
	res := c.CallTool("forecast", map[string]any{})
	if b, _ := json.Marshal(res.StructuredContent); !res.IsError || !strings.Contains(string(b), fmt.Sprintf(`"code":%d`, mcperr.CodeRateLimited)) {
		t.Errorf("the second call of a quota of one: isError %v, %s; want RateLimited", res.IsError, b)
	}
	if keys := m.Keys(); !slices.Contains(keys, "mcpcore:weather:rate:tool:forecast:anonymous") {
		t.Errorf("the quota is not counted in Redis; keys %q", keys)
	}
	if err := c.Server().Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "every connection closed after Shutdown", func() bool { return m.CurrentConnectionCount() == 0 })
}
