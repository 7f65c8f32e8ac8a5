package redis_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	goredis "github.com/redis/go-redis/v9"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/redis"
)

// A program that builds its own Redis client passes the fleet's parts to
// the server itself; app.Options.OpenRedis set to Open and MCP_REDIS_URL do
// the same for a program that does not.
func ExampleNew() {
	m, _ := miniredis.Run() // a real Redis in production: redis.New takes any go-redis client
	defer m.Close()
	client := goredis.NewClient(&goredis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	defer client.Close()
	f := redis.New(client, &redis.Options{Server: "library"})
	defer f.Close()

	limited := mcpcore.Tool[struct{}, struct{}]{
		Name: "summarize", Description: "Summarizes the new articles.",
		RateLimit: mcpcore.RateLimit{Calls: 2, Per: time.Minute},
		Handler:   func(*mcpcore.Context, struct{}) (struct{}, error) { return struct{}{}, nil },
	}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "library"}, &mcpcore.ServerOptions{Bus: f.Bus(), Limiter: f.Limiter()}, limited)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Serve as usual: over stdio, Serve shuts the server down as it returns.
	_ = srv.Serve(context.Background(), &mcp.StdioTransport{})
}
