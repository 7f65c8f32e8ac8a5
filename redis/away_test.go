package redis

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// gatedIn names the gate a call of the gated tools waits for.
type gatedIn struct {
	Gate string `json:"gate"`
}

type gatedOut struct {
	Text string `json:"text"`
}

// gates are the channels the gated tools' calls wait on, by name; a call
// of a gate not opened waits until it is, or its context ends.
type gates struct {
	mu      sync.Mutex
	ch      map[string]chan struct{}
	started atomic.Int64 // handler runs begun
}

func (g *gates) gate(name string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch == nil {
		g.ch = map[string]chan struct{}{}
	}
	c, ok := g.ch[name]
	if !ok {
		c = make(chan struct{})
		g.ch[name] = c
	}
	return c
}

func (g *gates) open(name string) { close(g.gate(name)) }

func (g *gates) tool(name string, support mcpcore.TaskSupport) mcpcore.Tool[gatedIn, gatedOut] {
	return mcpcore.Tool[gatedIn, gatedOut]{
		Name: name, Description: "Waits for its gate.", Task: support,
		Handler: func(ctx *mcpcore.Context, in gatedIn) (gatedOut, error) {
			g.started.Add(1)
			select {
			case <-g.gate(in.Gate):
			case <-ctx.Done():
				return gatedOut{}, ctx.Err()
			}
			return gatedOut{Text: "opened " + in.Gate}, nil
		},
	}
}

// awayReplica is one replica of a server whose Redis is behind proxy.
type awayReplica struct {
	*replica
	srv  *mcpcore.Server
	logs *wiretest.LogBuffer
	cs   *mcp.ClientSession
}

// newAwayReplica starts an mcpcore server on a Fleet that reaches Redis
// through addr, with a client that takes tasks connected to it.
func newAwayReplica(t *testing.T, addr string, defs ...mcpcore.Definition) *awayReplica {
	t.Helper()
	r := newReplica(t, addr)
	logs := &wiretest.LogBuffer{}
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "weather", Version: "1.0.0"}, &mcpcore.ServerOptions{
		Tasks:        r.Tasks(),
		Logger:       slog.New(mcpcore.NewLogHandler(logs, &mcpcore.LogOptions{Level: slog.LevelDebug, JSON: true})),
		RepeatWindow: -1,
	}, defs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcpclient.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, mcpclient.Transport(ct), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &awayReplica{replica: r, srv: srv, logs: logs, cs: cs}
}

func (r *awayReplica) call(t *testing.T, tool, gate string) *mcp.CallToolResult {
	t.Helper()
	// A bound for liveness only: a call that never ends fails the test.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := r.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: gatedIn{Gate: gate}})
	if err != nil {
		t.Fatalf("tools/call %s: %v", tool, err)
	}
	return res
}

// startTask calls tool and returns the id of the task it became.
func (r *awayReplica) startTask(t *testing.T, tool, gate string) string {
	t.Helper()
	task := mcpclient.TaskOf(r.call(t, tool, gate))
	if task == nil {
		t.Fatalf("tools/call %s did not become a task", tool)
	}
	return task.TaskID
}

func (r *awayReplica) get(id string) (*mcpclient.DetailedTask, error) {
	return mcpclient.GetTask(context.Background(), r.cs, id)
}

// awaitStatus polls tasks/get on r until the task is want.
func (r *awayReplica) awaitStatus(t *testing.T, id string, want fleet.TaskStatus) *mcpclient.DetailedTask {
	t.Helper()
	var last *mcpclient.DetailedTask
	var lastErr error
	eventually(t, "read task "+id+" "+string(want), func() bool {
		last, lastErr = r.get(id)
		return lastErr == nil && last.Status == want
	})
	return last
}

// checkRetryableUnavailable checks that err is ServiceUnavailable,
// retryable: the answer to call again, not "unknown task".
func checkRetryableUnavailable(t *testing.T, what string, err error) {
	t.Helper()
	e, ok := errchain.As[*mcperr.Error](err)
	if !ok || e.Code() != mcperr.CodeServiceUnavailable || e.Data()["retryable"] != true {
		t.Errorf("%s: %v, want ServiceUnavailable with retryable true", what, err)
	}
}

// resultError is the error in a tool result's structuredContent.
func resultError(t *testing.T, res *mcp.CallToolResult) *mcperr.Error {
	t.Helper()
	e := mcpclient.ErrorOf(res)
	if e == nil {
		b, _ := json.Marshal(res)
		t.Fatalf("not a failure: %s", b)
	}
	return e
}

// With Redis stalled, a call of a tool that may run as a task is answered
// with its plain result once the store's bound has passed, and the calls
// after, the store known away, without waiting on it.
func TestRedisAwayOptionalRunsSync(t *testing.T) {
	m := startRedis(t)
	proxy := newStallProxy(t, m.Addr())
	var g gates
	a := newAwayReplica(t, proxy.Addr(), g.tool("export", mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: 5 * time.Millisecond}))
	proxy.stall()

	done := make(chan *mcp.CallToolResult, 1)
	go func() { done <- a.call(t, "export", "first") }()
	eventually(t, "see the call fail to become a task", func() bool {
		return a.logs.Has(t, "mcpcore: the call could not become a task; it is answered when it ends")
	})
	g.open("first")
	res := <-done
	if task := mcpclient.TaskOf(res); task != nil || res.IsError || !strings.Contains(wiretest.Text(t, res), "opened first") {
		t.Errorf("with Redis stalled, the call was answered %v, %+v", task, res)
	}
	if healthy(a.Tasks()) {
		t.Fatal("the store still takes Redis to answer")
	}

	// Known away: the next call does not try the store.
	go func() { time.Sleep(20 * time.Millisecond); g.open("second") }()
	res = a.call(t, "export", "second")
	if task := mcpclient.TaskOf(res); task != nil || res.IsError || !strings.Contains(wiretest.Text(t, res), "opened second") {
		t.Errorf("with Redis known away, the call was answered %v, %+v", task, res)
	}

	proxy.resume()
	eventually(t, "see Redis back", func() bool { return healthy(a.Tasks()) })
	if id := a.startTask(t, "export", "third"); id == "" {
		t.Error("no task once Redis is back")
	}
	g.open("third")
}

// With Redis stalled, a tool that runs only as a task is refused,
// ServiceUnavailable and retryable: the first call when its task cannot be
// created, the next in admit, before the handler runs; once Redis is back,
// it runs as a task again.
func TestRedisAwayRequiredRefused(t *testing.T) {
	m := startRedis(t)
	proxy := newStallProxy(t, m.Addr())
	var g gates
	a := newAwayReplica(t, proxy.Addr(), g.tool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce}))
	proxy.stall()

	e := resultError(t, a.call(t, "job", "first"))
	if e.Code() != mcperr.CodeServiceUnavailable || e.Data()["retryable"] != true {
		t.Errorf("the first call with Redis stalled: %v %v, want ServiceUnavailable, retryable", e.Code(), e.Data())
	}
	if n := g.started.Load(); n != 0 {
		t.Errorf("the handler ran %d times for a task that could not be created", n)
	}
	e = resultError(t, a.call(t, "job", "second"))
	if e.Code() != mcperr.CodeServiceUnavailable || e.Data()["retryable"] != true || !strings.Contains(e.Message(), "unreachable") {
		t.Errorf("a call with Redis known away: %v %q %v", e.Code(), e.Message(), e.Data())
	}
	if n := g.started.Load(); n != 0 {
		t.Errorf("the handler ran %d times while Redis was away", n)
	}

	proxy.resume()
	eventually(t, "see Redis back", func() bool { return healthy(a.Tasks()) })
	id := a.startTask(t, "job", "third")
	g.open("third")
	if got := a.awaitStatus(t, id, fleet.TaskCompleted); !strings.Contains(string(got.Result), "opened third") {
		t.Errorf("the task after Redis returned: %s", got.Result)
	}
}

// With Redis stalled, the replica running a task answers tasks/get,
// tasks/cancel and tasks/update for it from its shadow (its result, its
// cancel final at once), and another replica answers ServiceUnavailable,
// retryable, not "unknown task".
func TestRedisAwayOwnerAnswersFromShadow(t *testing.T) {
	m := startRedis(t)
	proxy := newStallProxy(t, m.Addr())
	var g gates
	job := g.tool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce})
	a := newAwayReplica(t, proxy.Addr(), job)
	b := newAwayReplica(t, proxy.Addr(), job)
	ends, cancels := a.startTask(t, "job", "ends"), a.startTask(t, "job", "cancelled")
	proxy.stall()

	if got, err := a.get(ends); err != nil || got.Status != fleet.TaskWorking {
		t.Errorf("the owner read its running task as %+v, %v; want working", got, err)
	}
	_, err := b.get(ends)
	checkRetryableUnavailable(t, "another replica's tasks/get", err)

	g.open("ends")
	if got := a.awaitStatus(t, ends, fleet.TaskCompleted); !strings.Contains(string(got.Result), "opened ends") {
		t.Errorf("the owner's completed task: %s", got.Result)
	}
	if err := mcpclient.CancelTask(context.Background(), a.cs, cancels); err != nil {
		t.Errorf("tasks/cancel at the owner: %v", err)
	}
	if got, err := a.get(cancels); err != nil || got.Status != fleet.TaskCancelled {
		t.Errorf("after its cancel the owner read the task as %+v, %v; want cancelled", got, err)
	}
	err = mcpclient.CancelTask(context.Background(), b.cs, cancels)
	checkRetryableUnavailable(t, "another replica's tasks/cancel", err)
	err = mcpclient.UpdateTask(context.Background(), b.cs, ends, json.RawMessage(`{}`))
	checkRetryableUnavailable(t, "another replica's tasks/update", err)
	if err := mcpclient.UpdateTask(context.Background(), a.cs, ends, json.RawMessage(`{}`)); err != nil {
		t.Errorf("tasks/update at the owner: %v", err)
	}
}

// The owner's writes made while Redis was stalled reach it when it
// returns; a record Redis lost in a restart without persistence is
// re-created from the owner's shadow, so that any replica reads it again.
func TestRedisAwayFlushOnReturn(t *testing.T) {
	m := startRedis(t)
	addr := m.Addr()
	proxy := newStallProxy(t, addr)
	var g gates
	job := g.tool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce})
	a := newAwayReplica(t, proxy.Addr(), job)
	b := newAwayReplica(t, proxy.Addr(), job)
	ends, runs := a.startTask(t, "job", "ends"), a.startTask(t, "job", "runs")
	proxy.stall()
	g.open("ends")
	a.awaitStatus(t, ends, fleet.TaskCompleted)
	if _, err := b.get(ends); err == nil {
		t.Fatal("another replica read the task while Redis was stalled")
	}

	proxy.resume()
	if got := b.awaitStatus(t, ends, fleet.TaskCompleted); !strings.Contains(string(got.Result), "opened ends") {
		t.Errorf("the result written on Redis's return: %s", got.Result)
	}

	// Redis restarts empty: the running task's record is lost, and its
	// owner puts it back.
	m.Close()
	restartRedis(t, addr)
	b.awaitStatus(t, runs, fleet.TaskWorking)
	g.open("runs")
	if got := b.awaitStatus(t, runs, fleet.TaskCompleted); !strings.Contains(string(got.Result), "opened runs") {
		t.Errorf("the re-created task's result: %s", got.Result)
	}
}

// healthy is what a server reads of s's health.
func healthy(s fleet.TaskStore) bool {
	h, ok := s.(fleet.TaskStoreHealth)
	return !ok || h.Healthy()
}
