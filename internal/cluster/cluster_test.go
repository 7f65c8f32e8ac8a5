package cluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// summary is what each check saw, written to <out>/summary.txt.
type summary struct {
	mu   sync.Mutex
	rows []string
}

func (s *summary) add(ok bool, check string, took time.Duration, format string, args ...any) {
	result := "ok"
	if !ok {
		result = "FAILED"
	}
	row := fmt.Sprintf("%-58s %-6s %7.2fs  %s", check, result, took.Seconds(), fmt.Sprintf(format, args...))
	fmt.Println("cluster: " + row)
	s.mu.Lock()
	s.rows = append(s.rows, row)
	s.mu.Unlock()
}

func (s *summary) write() {
	s.mu.Lock()
	defer s.mu.Unlock()
	text := strings.Join(s.rows, "\n") + "\n"
	_ = os.WriteFile(filepath.Join(outDir(), "summary.txt"), []byte(text), 0o644)
	fmt.Print("\n== cluster summary\n" + text)
}

const (
	alpha  = "conformance-0.2.0-alpha.12"
	legacy = "conformance-0.1.16"
)

// TestCluster runs every check in turn on one fleet, restarted as each
// needs: the order matters, and a failed check does not stop the next.
func TestCluster(t *testing.T) {
	if os.Getenv("MCPCORE_CLUSTER") != "1" {
		t.Skip("the cluster test runs under make cluster (scripts/cluster.sh), with MCPCORE_CLUSTER=1: it needs redis-server, haproxy, the replicas' binaries and the interop node_modules")
	}
	full := os.Getenv("CLUSTER_FULL") == "1"
	var sum summary
	defer sum.write()
	f := newFleet(t) // the conformance server, stateless, one set of keys

	t.Run("list_changed once per stream", func(t *testing.T) { checkListChangedOncePerStream(t, f, &sum) })
	t.Run("the suite", func(t *testing.T) { checkSuites(t, f, &sum) })
	t.Run("a stateful session whose replica dies", func(t *testing.T) { checkStatefulDeath(t, f, &sum) })

	f.mode, f.bin = "stateless", fleetBin()
	f.setKeys(keyA, keyA, keyA)
	f.restartReplicas()
	ttl := &ttlProbe{cs: taskSession(t, f.url())}
	t.Run("tasks at their TTL's end", func(t *testing.T) { ttl.start(t, &sum) })
	t.Run("notifications", func(t *testing.T) { checkNotifications(t, f, &sum) })
	t.Run("rate limit", func(t *testing.T) { checkRateLimit(t, f, &sum) })
	t.Run("a replica killed mid-stream", func(t *testing.T) { checkStreamDeath(t, f, &sum) })
	t.Run("a task whose replica is killed", func(t *testing.T) { checkTaskOwnerKilled(t, f, &sum) })
	t.Run("a task cancelled and answered elsewhere", func(t *testing.T) { checkTaskNonOwner(t, f, &sum) })
	t.Run("a task whose replica pauses", func(t *testing.T) { checkTaskOwnerPaused(t, f, &sum) })
	t.Run("rolling SIGTERM", func(t *testing.T) { checkRolling(t, f, &sum, full) })
	t.Run("tasks after their TTL", func(t *testing.T) { ttl.finish(t, &sum) })
	t.Run("Redis away", func(t *testing.T) { checkRedisAway(t, f, &sum) })
	// After checkRedisAway, whose share of a quota counts the replicas
	// seen before Redis stopped: a stop just before would change it.
	t.Run("tasks with Redis away", func(t *testing.T) { checkTasksRedisAway(t, f, &sum) })
	t.Run("tasks across a Redis restart", func(t *testing.T) { checkTasksRedisRestart(t, f, &sum) })
}

// checkSuites runs the conformance suite through the balancer: stateless
// with shared keys, with one replica dead, with a key per replica (which
// must fail), and stateful behind the sticky table.
func checkSuites(t *testing.T, f *fleet, sum *summary) {
	code, took := suite(t, "stateless-shared-keys", alpha, f.url(), "--requirements", "2026-07-28")
	sum.add(code == 0, "suite 0.2.0-alpha.12 2026-07-28, round-robin, same keys", took, "exit %d", code)
	if code != 0 {
		t.Errorf("the 2026-07-28 suite through haproxy exited %d, want 0", code)
	}
	checkTaskScenarios(t, sum, "stateless-shared-keys", "suite tasks-* scenarios, round-robin over 3 replicas")

	f.reps[1].kill()
	f.settle()
	code, took = suite(t, "stateless-two-replicas", alpha, f.url(), "--requirements", "2026-07-28")
	sum.add(code == 0, "suite 2026-07-28 with replica 2 SIGKILLed (2 of 3)", took, "exit %d", code)
	if code != 0 {
		t.Errorf("with one replica dead, the suite exited %d, want 0", code)
	}
	checkTaskScenarios(t, sum, "stateless-two-replicas", "suite tasks-* scenarios, 2 of 3 replicas")
	f.startReplica(1)

	f.redis.kill()
	code, took = suite(t, "stateless-redis-dead", alpha, f.url(), "--requirements", "2026-07-28")
	sum.add(code == 0, "suite 2026-07-28 with Redis dead", took, "exit %d", code)
	if code != 0 {
		t.Errorf("with Redis dead, the suite exited %d, want 0", code)
	}
	f.startRedis()

	f.setKeys(keyA, keyB, keyC)
	f.restartReplicas()
	code, took = suite(t, "stateless-different-keys", alpha, f.url(), "--requirements", "2026-07-28")
	out, _ := os.ReadFile(filepath.Join(outDir(), "stateless-different-keys.txt"))
	failedInput := strings.Count(string(out), "✗ input-required") + strings.Count(string(out), "✗ input_required")
	sum.add(code != 0 && failedInput > 0, "negative control: a key of its own per replica", took, "exit %d, %d multi-round scenarios failed (want non-zero, some)", code, failedInput)
	if code == 0 || failedInput == 0 {
		t.Errorf("with a key of its own on each replica, the suite exited %d with %d multi-round scenarios failed: the check cannot fail", code, failedInput)
	}

	f.mode = "stateful"
	f.setKeys(keyA, keyA, keyA)
	f.restartReplicas()
	code, took = suite(t, "stateful-0.1.16", legacy, f.url())
	sum.add(code == 0, "suite 0.1.16, sticky on Mcp-Session-Id", took, "exit %d", code)
	if code != 0 {
		t.Errorf("the 0.1.16 suite through the sticky balancer exited %d, want 0", code)
	}
	code, took = suite(t, "stateful-2025-11-25", alpha, f.url(), "--requirements", "2025-11-25")
	sum.add(code == 0, "suite 0.2.0-alpha.12 2025-11-25, sticky", took, "exit %d", code)
	if code != 0 {
		t.Errorf("the alpha.12 2025-11-25 suite through the sticky balancer exited %d, want 0", code)
	}
}

// checkTaskScenarios fails on any FAILURE in a tasks-* scenario of the
// suite's run name: they are unscored, so its exit code proves nothing
// of them.
func checkTaskScenarios(t *testing.T, sum *summary, name, row string) {
	problems, passed := taskProblems(filepath.Join(outDir(), name))
	sum.add(len(problems) == 0, row, 0, "%d checks passed, %d problems %v", passed, len(problems), problems)
	if len(problems) > 0 {
		t.Errorf("the tasks-* scenarios of %s: %s", name, strings.Join(problems, "; "))
	}
}

// checkStatefulDeath kills the replica of a stateful session: its next
// request is answered 404, and a new session works.
func checkStatefulDeath(t *testing.T, f *fleet, sum *summary) {
	f.mode, f.bin = "stateful", fleetBin()
	f.restartReplicas()
	cs := connect(t, f.url(), "2025-11-25", nil)
	who, err := whoami(ctxFor(t, 5*time.Second), cs)
	if err != nil {
		t.Fatal(err)
	}
	i := int(who[1] - '1')
	f.reps[i].kill()
	killed := time.Now()
	req, _ := http.NewRequest(http.MethodPost, f.url(), strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	status := 0
	var body []byte
	if resp, err := http.DefaultClient.Do(req); err == nil {
		status = resp.StatusCode
		body, _ = io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
	}
	took := time.Since(killed)
	fresh := connect(t, f.url(), "2025-11-25", nil)
	who2, err2 := whoami(ctxFor(t, 10*time.Second), fresh)
	ok := status == http.StatusNotFound && err2 == nil && who2 != who
	sum.add(ok, "replica SIGKILLed under a stateful session", took, "its session's next request: %d %q; a new session on %s", status, strings.TrimSpace(string(body)), who2)
	if !ok {
		t.Errorf("session of a dead replica: %d %s (want 404); new session: %q, %v", status, body, who2, err2)
	}
	f.startReplica(i)
}

// checkNotifications raises a change on replica 3 and counts what the
// subscribers of replicas 1 and 2 hear.
func checkNotifications(t *testing.T, f *fleet, sum *summary) {
	ls := []*listener{subscribe(t, f.replicaURL(0, "/mcp")), subscribe(t, f.replicaURL(1, "/mcp"))}
	r3 := connect(t, f.replicaURL(2, "/mcp"), "2026-07-28", nil)
	f.touch(t, r3)
	took, ok := waitCount(ls, 1, time.Second)
	time.Sleep(1500 * time.Millisecond) // room for a duplicate to show
	ok = ok && ls[0].count() == 1 && ls[1].count() == 1
	sum.add(ok, "a change on replica 3, subscribers on 1 and 2", took, "heard %d and %d times (want once each, within 1 s)", ls[0].count(), ls[1].count())
	if !ok {
		t.Errorf("the subscribers heard %d and %d updates, want 1 each within 1 s", ls[0].count(), ls[1].count())
	}
}

// checkRateLimit sends 30 calls of a tool limited to 10 a second through
// the round-robin balancer.
func checkRateLimit(t *testing.T, f *fleet, sum *summary) {
	time.Sleep(1100 * time.Millisecond) // a whole quota
	begin := time.Now()
	admitted, refused, other := f.limitedBurst(t, 30, 5)
	ok := admitted >= 9 && admitted <= 11 && len(other) == 0
	sum.add(ok, "10/s across 3 replicas, 30 calls", time.Since(begin), "admitted %d, refused %d with RateLimited", admitted, refused)
	if !ok {
		t.Errorf("30 calls admitted %d (refused %d, other %v), want 10 ± 1", admitted, refused, other)
	}
}

// checkStreamDeath kills the replica serving a stateless streaming call.
func checkStreamDeath(t *testing.T, f *fleet, sum *summary) {
	progress := make(chan string, 64)
	cs := connect(t, f.url(), "2026-07-28", &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- r.Params.Message:
			default:
			}
		},
	})
	done := make(chan error, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "stream", Arguments: map[string]any{"seconds": 10},
			Meta: mcp.Meta{"progressToken": "p1"}})
		switch {
		case err == nil && !res.IsError:
			err = fmt.Errorf("the call succeeded, though its replica was killed")
		case err == nil:
			err = fmt.Errorf("error result: %v", res.StructuredContent)
		}
		done <- err
	}()
	var serving string
	select {
	case m := <-progress:
		serving = strings.TrimPrefix(m, "replica ")
	case <-time.After(10 * time.Second):
		t.Fatal("no progress from the streaming call")
	}
	i := int(serving[1] - '1')
	f.reps[i].signal(syscall.SIGKILL)
	killed := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the client heard nothing 10 s after its replica died")
	}
	took := time.Since(killed)
	f.reps[i].wait(5 * time.Second)
	retryBegin := time.Now()
	who, rerr := whoami(ctxFor(t, 10*time.Second), cs)
	ok := took <= 2*time.Second && rerr == nil && who != serving
	sum.add(ok, "replica SIGKILLed mid-stream, stateless", took, "the client's error: %q; its retry answered by %s in %s",
		short(err), who, time.Since(retryBegin).Round(time.Millisecond))
	if !ok {
		t.Errorf("error after %s (want within 2 s): %v; retry: %q, %v", took, err, who, rerr)
	}
	f.startReplica(i)
	f.settle()
}

// checkRolling restarts each replica in turn with SIGTERM while clients
// call through the balancer.
func checkRolling(t *testing.T, f *fleet, sum *summary, full bool) {
	workers := 8
	if full {
		workers = 32
	}
	// A call refused as its replica begins to drain was never admitted:
	// it passed the HTTP layer's check a moment before the drain began,
	// and the pipeline refused it (ServiceUnavailable, "shutting down")
	// before it ran. Those are counted apart; an admitted call must not
	// fail.
	var answered, failed, refused atomic.Int64
	var mu sync.Mutex
	var failures []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		cs := connect(t, f.url(), "2026-07-28", nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, err := whoami(ctxFor(t, 20*time.Second), cs)
				if err != nil && strings.Contains(err.Error(), "The server is shutting down") {
					refused.Add(1)
				} else if err != nil {
					failed.Add(1)
					mu.Lock()
					if len(failures) < 5 {
						failures = append(failures, short(err))
					}
					mu.Unlock()
				} else {
					answered.Add(1)
				}
			}
		}()
	}
	// Each replica, as it is stopped, runs a task shorter than its grace
	// (3 s) and one longer.
	var tasks [3]rollingTasks
	begin := time.Now()
	for i := range f.reps {
		tasks[i] = startRollingTasks(t, f, i)
		f.reps[i].signal(syscall.SIGTERM)
		tasks[i].term = time.Now()
		if !f.reps[i].wait(20 * time.Second) {
			t.Errorf("replica %d did not stop within 20 s of SIGTERM", i+1)
		}
		tasks[i].exited = time.Now()
		f.startReplica(i)
		f.settle()
	}
	close(stop)
	wg.Wait()
	checkRollingTasks(t, f, sum, tasks)
	ok := failed.Load() == 0
	sum.add(ok, "rolling SIGTERM of 3 replicas under load", time.Since(begin), "%d clients, %d calls answered, %d admitted calls failed, %d refused before admission (shutting down)",
		workers, answered.Load(), failed.Load(), refused.Load())
	if !ok {
		t.Errorf("%d of %d calls failed during the rolling restart: %v", failed.Load(), answered.Load()+failed.Load(), failures)
	}
}

// checkRedisAway stops Redis, then kills it, then starts it again.
func checkRedisAway(t *testing.T, f *fleet, sum *summary) {
	l1 := subscribe(t, f.replicaURL(0, "/mcp"))
	r3 := connect(t, f.replicaURL(2, "/mcp"), "2026-07-28", nil)
	f.redis.signal(syscall.SIGSTOP)
	cs := connect(t, f.url(), "2026-07-28", nil)
	var slowest time.Duration
	begin := time.Now()
	fails := 0
	for range 30 {
		b := time.Now()
		if _, err := whoami(ctxFor(t, 10*time.Second), cs); err != nil {
			fails++
		}
		slowest = max(slowest, time.Since(b))
	}
	sum.add(fails == 0, "30 calls with Redis SIGSTOPped", time.Since(begin), "%d failed, slowest %s", fails, slowest.Round(time.Millisecond))
	if fails > 0 {
		t.Errorf("%d of 30 calls failed with Redis stopped", fails)
	}

	time.Sleep(1100 * time.Millisecond)
	begin = time.Now()
	admitted, refused, other := f.limitedBurst(t, 30, 5)
	// Each replica counts ceil(10/3) = 4 on its own.
	ok := admitted >= 3 && admitted <= 13 && len(other) == 0
	sum.add(ok, "10/s with Redis stopped: each replica's share", time.Since(begin), "admitted %d of 30, refused %d (want about 3 × 4)", admitted, refused)
	if !ok {
		t.Errorf("with Redis stopped, 30 calls admitted %d (refused %d, other %v)", admitted, refused, other)
	}

	f.touch(t, r3)
	time.Sleep(time.Second)
	n := l1.count()
	sum.add(n == 0, "a change with Redis stopped stays on its replica", time.Second, "replica 1 heard %d from replica 3 (want 0)", n)
	if n != 0 {
		t.Errorf("with Redis stopped, replica 1's subscriber heard %d updates from replica 3", n)
	}

	f.redis.kill()
	f.startRedis()
	restarted := time.Now()
	heard := false
	for time.Since(restarted) < 15*time.Second && !heard {
		f.touch(t, r3)
		_, heard = waitCount([]*listener{l1}, n+1, 200*time.Millisecond)
	}
	took := time.Since(restarted)
	ok = heard && took <= 2*time.Second
	sum.add(ok, "Redis killed and restarted: a cross-replica change", took, "heard %v after %s (want within 2 s)", heard, took.Round(time.Millisecond))
	if !ok {
		t.Errorf("after Redis restarted, replica 1 heard replica 3's change: %v, after %s", heard, took)
	}
}

func short(err error) string {
	if err == nil {
		return "<nil>"
	}
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
