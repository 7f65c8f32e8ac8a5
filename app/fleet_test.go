package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
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
	const describe = "redis 10.0.0.5:6379/0 (notifications, rate limits, tasks)"
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

// gets is a task store that counts the reads it is asked for.
type gets struct {
	fleet.TaskStore
	n atomic.Int64
}

func (g *gets) Get(ctx context.Context, id, principal string) (fleet.Task, error) {
	g.n.Add(1)
	return g.TaskStore.Get(ctx, id, principal)
}

// The task store OpenRedis opened is the one the server reads tasks from,
// unless the program gave its own.
func TestOpenRedisGivesTheServerItsTaskStore(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[none, none]{
		Name: "job", Description: "a task", Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
		Handler: func(*mcpcore.Context, none) (none, error) { return none{}, nil },
	}
	opened := &gets{TaskStore: fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	open := func(string, opener.Options) (*opener.Shared, error) {
		return &opener.Shared{Bus: nopBus{}, Limiter: &fleet.Local{}, Tasks: opened}, nil
	}
	cfg := app.Config{RedisURL: "redis://10.0.0.5:6379/0"}
	cfg.Stateless = true
	own := &gets{TaskStore: fleet.NewLocalTasks(fleet.LocalTasksOptions{})}
	for _, tc := range []struct {
		name  string
		so    *mcpcore.ServerOptions
		reads *gets
	}{
		{"opened", nil, opened},
		{"the program's own", &mcpcore.ServerOptions{Tasks: own}, own},
	} {
		a, err := app.New(mcpcore.Info{Name: "tasks"}, cfg, &app.Options{Server: tc.so, OpenRedis: open}, tool)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(a.Server().Handler())
		before := tc.reads.n.Load()
		status := postTasksGet(t, hs.URL+mcpcore.HTTPPath, "N3QJ5V2XHKZ7TQ4M6W3LRB5Y2A")
		hs.Close()
		a.Close(context.Background())
		if tc.reads.n.Load() != before+1 {
			t.Errorf("%s: tasks/get (HTTP %d) did not read the task store %s", tc.name, status, tc.name)
		}
	}
}

// postTasksGet asks for task id over stateless HTTP, the extension
// declared, and returns the HTTP status.
func postTasksGet(t *testing.T, endpoint, id string) int {
	t.Helper()
	const version = "2026-07-28"
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": map[string]any{
		"taskId": id,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": version,
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "c", "version": "1"},
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}},
	}})
	req, _ := http.NewRequest("POST", endpoint, bytes.NewReader(body))
	req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {version}, "Mcp-Method": {"tasks/get"}, "Mcp-Name": {id}}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
