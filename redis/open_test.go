package redis

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/fleet/opener"
)

// Open is what app.Options.OpenRedis takes.
var _ opener.Func = Open

// A URL that does not parse is an error that does not repeat its password.
func TestBadURLHidesThePassword(t *testing.T) {
	for _, u := range []string{
		"redis://admin:hunter2 secret@localhost:6379/0",
		"redis://admin:hunter2@localhost:6379/zero",
		"http://admin:hunter2@localhost:6379",
		"redis://admin:hunter2@localhost:port",
		"redis://admin:hunter2%zz@localhost",
		"admin:hunter2@localhost",
		"redis://admin:hunter2@localhost/0?bogus=hunter2",
	} {
		sh, err := Open(u, opener.Options{Server: "weather"})
		if err == nil {
			sh.Close()
			t.Errorf("%q parsed", u)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error for a bad URL repeats its password: %v", err)
		}
	}
}

// Open connects, describes the server without credentials, and Close
// closes what it opened.
func TestOpen(t *testing.T) {
	m := startRedis(t)
	m.RequireUserAuth("mcp", "hunter2")
	sh, err := Open("redis://mcp:hunter2@"+m.Addr()+"/0", opener.Options{Server: "weather"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "redis " + m.Addr() + "/0 (notifications, rate limits, tasks)"; sh.Describe != want {
		t.Errorf("Describe = %q, want %q", sh.Describe, want)
	}
	d, err := sh.Limiter.Allow(context.Background(), "k", fleet.Limit{Calls: 1, Per: 1e9})
	if err != nil || !d.Allowed {
		t.Fatalf("Allow = %v, %v", d, err)
	}
	if !m.Exists("mcpcore:weather:rate:k") {
		t.Errorf("the limiter did not count in Redis; keys %q", m.Keys())
	}
	task, err := sh.Tasks.Create(context.Background(), fleet.Task{ID: "T1", Status: fleet.TaskWorking, TTL: time.Hour})
	if err != nil || task.Owner != sh.Tasks.Self() || !m.Exists("mcpcore:weather:task:{T1}") {
		t.Errorf("the task store did not keep the task in Redis: %+v, %v; keys %q", task, err, m.Keys())
	}
	if err := sh.Close(); err != nil {
		t.Fatal(err)
	}
	// miniredis sees a closed connection when its reader next wakes.
	eventually(t, "every connection closed after Close", func() bool { return m.CurrentConnectionCount() == 0 })
}

// A replica starts with Redis away, warning, rather than fail.
func TestOpenWithRedisAway(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // a port nobody listens on
	logs := &logRecorder{}
	sh, err := Open("rediss://"+addr, opener.Options{Server: "weather", Logger: slog.New(logs)})
	if err != nil {
		t.Fatalf("open failed with Redis away: %v", err)
	}
	defer sh.Close()
	if n := logs.count(slog.LevelWarn, "Redis is unreachable at start"); n != 1 {
		t.Errorf("warned %d times, want 1: %q", n, logs.all())
	}
	if want := "redis " + addr + "/0, TLS (notifications, rate limits, tasks)"; sh.Describe != want {
		t.Errorf("Describe = %q, want %q", sh.Describe, want)
	}
	sh.Bus.Publish(fleet.Event{Method: fleet.ToolListChanged})
	if d, err := sh.Limiter.Allow(context.Background(), "k", fleet.Limit{Calls: 1, Per: 1e9}); err != nil || !d.Allowed {
		t.Errorf("Allow with Redis away = %v, %v; want allowed locally", d, err)
	}
	// The task store fails, within its bound, rather than wait.
	if _, err := sh.Tasks.Create(context.Background(), fleet.Task{ID: "T1", Status: fleet.TaskWorking, TTL: time.Hour}); err == nil {
		t.Error("Create with Redis away succeeded")
	}
}
