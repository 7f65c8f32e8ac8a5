package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// An app given Open as Options.OpenRedis opens MCP_REDIS_URL as it
// starts: its quotas count in Redis, under the server's name, and Close
// closes the connection it opened.
func TestServerOpensTheRedisURL(t *testing.T) {
	m := startRedis(t)
	cfg, err := app.ConfigFromEnv(func(k string) string {
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
	a, err := app.New(mcpcore.Info{Name: "weather"}, cfg, &app.Options{OpenRedis: Open}, forecast)
	if err != nil {
		t.Fatal(err)
	}
	cs := wiretest.Connect(t, a.Server().MCPServer())
	call := func() *mcp.CallToolResult {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "forecast", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call(); res.IsError {
		t.Fatalf("the first call failed: %v", res.Content)
	}
	res := call()
	if b, _ := json.Marshal(res.StructuredContent); !res.IsError || !strings.Contains(string(b), fmt.Sprintf(`"code":%d`, mcperr.CodeRateLimited)) {
		t.Errorf("the second call of a quota of one: isError %v, %s; want RateLimited", res.IsError, b)
	}
	if keys := m.Keys(); !slices.Contains(keys, "mcpcore:weather:rate:tool:forecast:anonymous") {
		t.Errorf("the quota is not counted in Redis; keys %q", keys)
	}
	a.Close(context.Background())
	eventually(t, "every connection closed after Close", func() bool { return m.CurrentConnectionCount() == 0 })
}
