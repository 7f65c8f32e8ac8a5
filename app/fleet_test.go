package app_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/fleet/opener"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

type none struct{}

// limitedTool is a tool with a quota of l.
func limitedTool(name string, l mcpcore.RateLimit) mcpcore.Tool[none, none] {
	return mcpcore.Tool[none, none]{
		Name: name, Description: "limited", RateLimit: l,
		Handler: func(*mcpcore.Context, none) (none, error) { return none{}, nil },
	}
}

// MCP_REDIS_URL in a program that gives nothing to open it with stops the
// start, naming what to set, and the URL's password appears nowhere.
func TestRedisURLNeedsAnOpener(t *testing.T) {
	t.Parallel()
	_, err := app.New(mcpcore.Info{Name: "x"}, app.Config{RedisURL: "redis://:hunter2-secret@127.0.0.1:6379/0"}, nil)
	if err == nil {
		t.Fatal("New accepted MCP_REDIS_URL without Options.OpenRedis")
	}
	if msg := err.Error(); !strings.Contains(msg, "set app.Options.OpenRedis to redis.Open of package github.com/seed417024ea/mcpcore/redis") || strings.Contains(msg, "hunter2") {
		t.Fatalf("error = %q, want one naming the option and not the password", msg)
	}
	cfg, err := app.ConfigFromEnv(func(k string) string {
		return map[string]string{"MCP_REDIS_URL": "http://:hunter2-secret@x", "MCP_RATE_LIMIT": "ten a second"}[k]
	})
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "MCP_RATE_LIMIT") || !strings.Contains(err.Error(), "MCP_REDIS_URL") {
		t.Fatalf("ConfigFromEnv(bad URL, bad limit) = %+v, %v; want errors naming both, without the password", cfg, err)
	}
}

// OpenRedis opens Config.RedisURL as the app starts, with the server's
// name, logger and meter provider, when the program gives no Bus or
// Limiter of its own; the server counts its quotas with what it opened,
// and the app closes it once, as it closes.
func TestOpenRedisOpensTheURL(t *testing.T) {
	t.Parallel()
	const url = "redis://10.0.0.5:6379/0"
	var got []string
	var closed int
	limiter := &fleet.Local{}
	open := func(u string, o opener.Options) (*opener.Shared, error) {
		got = append(got, u+" "+o.Server)
		if o.Logger == nil {
			t.Errorf("opener.Options without a logger: %+v", o)
		}
		return &opener.Shared{Limiter: limiter, Describe: "fake", Close: func() error { closed++; return nil }}, nil
	}
	cfg := app.Config{RedisURL: url}
	a, err := app.New(mcpcore.Info{Name: "quota"}, cfg, &app.Options{OpenRedis: open}, limitedTool("one", mcpcore.RateLimit{Calls: 1, Per: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{url + " quota"}; !slices.Equal(got, want) {
		t.Errorf("opened %q, want %q", got, want)
	}
	cs := wiretest.Connect(t, a.Server().MCPServer())
	call := func() bool {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "one", Arguments: map[string]any{}})
		return err == nil && !res.IsError
	}
	if !call() || call() {
		t.Error("a quota of one: want the first call admitted, the second refused")
	}
	if d, _ := limiter.Allow(context.Background(), "tool:one:anonymous", mcpcore.RateLimit{Calls: 1, Per: time.Hour}); d.Allowed {
		t.Error("the calls were not counted by the opened limiter")
	}
	a.Close(context.Background())
	if closed != 1 {
		t.Errorf("Close called %d times, want 1", closed)
	}

	got = nil
	own := &mcpcore.ServerOptions{Bus: nopBus{}, Limiter: &fleet.Local{}}
	b, err := app.New(mcpcore.Info{Name: "own"}, cfg, &app.Options{Server: own, OpenRedis: open})
	if err != nil {
		t.Fatal(err)
	}
	b.Close(context.Background())
	if len(got) != 0 {
		t.Errorf("opened %q with a Bus and a Limiter of the program's own", got)
	}
}

// nopBus is a Bus that carries nothing.
type nopBus struct{}

func (nopBus) Publish(fleet.Event)                    {}
func (nopBus) Listen(func(fleet.Event)) (stop func()) { return func() {} }

// The start-up line of a server over HTTP names what the app opened at
// MCP_REDIS_URL, as the opener describes it, without credentials.
func TestStartLineNamesWhatWasOpened(t *testing.T) {
	t.Parallel()
	const describe = "redis 10.0.0.5:6379/0 (notifications, rate limits)"
	open := func(string, opener.Options) (*opener.Shared, error) {
		return &opener.Shared{Bus: nopBus{}, Limiter: &fleet.Local{}, Describe: describe}, nil
	}
	logs := &wiretest.LogBuffer{}
	cfg := app.Config{Transport: app.TransportHTTP, HTTPPort: app.AnyPort,
		RedisURL: "redis://:hunter2-secret@10.0.0.5:6379/0"}
	a, err := app.New(mcpcore.Info{Name: "library", Version: "1.0.0"}, cfg, &app.Options{
		Server: &mcpcore.ServerOptions{Logger: slog.New(slog.NewTextHandler(logs, nil))}, OpenRedis: open,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), "Connect an MCP client") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if out := logs.String(); !strings.Contains(out, "shared with other replicas: "+describe+".") || strings.Contains(out, "hunter2") {
		t.Errorf("the start-up line does not name what was opened, or shows the password:\n%s", out)
	}
}
