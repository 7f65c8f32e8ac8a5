package cluster

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpfleet "github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcpclient"
)

// checkTasksRedisAway stops Redis (SIGSTOP) with a task running: a tool
// that must run as a task is refused, retryable; one that may runs within
// its request; the owner answers for its task from its shadow (other
// replicas answer retryable), takes its cancel, and writes it to Redis on
// its return.
func checkTasksRedisAway(t *testing.T, f *fleet, sum *summary) {
	cs := taskSession(t, f.url())
	id := startTask(t, cs, "hold", nil)
	started, ok := awaitEvent(id, "started", 10*time.Second)
	if !ok {
		t.Fatal("the hold task did not start")
	}
	i := started.replica
	owner, elsewhere := taskSession(t, f.replicaURL(i, "/mcp")), taskSession(t, f.replicaURL(other(i), "/mcp"))
	f.redis.signal(syscall.SIGSTOP)
	defer f.redis.signal(syscall.SIGCONT)
	time.Sleep(1500 * time.Millisecond) // past the store's health probe (once a second)

	begin := time.Now()
	res, err := cs.CallTool(ctxFor(t, 10*time.Second), &mcp.CallToolParams{Name: "sleep", Arguments: map[string]any{"seconds": 1}})
	took := time.Since(begin)
	refusedOK, said := refusedRetryable(res, err)
	sum.add(refusedOK, "Redis SIGSTOPped: a tool that runs only as a task", took, "%s", said)
	if !refusedOK {
		t.Errorf("with Redis stopped, a TaskRequired call: %s (want refused -32000 retryable)", said)
	}

	begin = time.Now()
	res, err = cs.CallTool(ctxFor(t, 10*time.Second), &mcp.CallToolParams{Name: "optional_sleep", Arguments: map[string]any{"seconds": 1}})
	took = time.Since(begin)
	syncOK := err == nil && !res.IsError && mcpclient.TaskOf(res) == nil
	sum.add(syncOK, "Redis SIGSTOPped: a tool that may run as a task, 1 s", took, "answered within its request: %v (%s over the handler's second)",
		syncOK, (took - time.Second).Round(time.Millisecond))
	if !syncOK {
		t.Errorf("with Redis stopped, a TaskOptional call of 1 s: %+v, %v (want its result, no task)", res, err)
	}

	mine, merr := getTask(owner, id)
	theirs, terr := getTask(elsewhere, id)
	shadowOK := merr == nil && mine.Status == mcpfleet.TaskWorking
	otherOK, otherSaid := errorRetryable(terr)
	begin = time.Now()
	cerr := mcpclient.CancelTask(ctxFor(t, 5*time.Second), owner, id)
	cancelled, seen := awaitEvent(id, "context ended", 10*time.Second)
	ok = shadowOK && otherOK && cerr == nil && seen && theirs == nil
	sum.add(ok, "Redis SIGSTOPped: tasks/* of a running task", since(cancelled.at, begin),
		"its owner answers %s (%v); another replica: %s; cancel on the owner: %v, handler cancelled %v",
		statusOf(mine), merr, otherSaid, cerr, seen)
	if !ok {
		t.Errorf("with Redis stopped: owner's tasks/get %s (%v), another's %s, cancel %v, handler cancelled %v", statusOf(mine), merr, otherSaid, cerr, seen)
	}

	f.redis.signal(syscall.SIGCONT)
	if cerr != nil {
		return // nothing was cancelled to write back
	}
	back := time.Now()
	d, at, err := awaitStatus(cs, id, mcpfleet.TaskCancelled, 30*time.Second)
	ok = !at.IsZero()
	sum.add(ok, "Redis resumed: the owner's shadow written back", since(at, back), "tasks/get via the balancer: %s (%v)", statusOf(d), err)
	if !ok {
		t.Errorf("after Redis resumed, the task cancelled on its owner reads %s (%v)", statusOf(d), err)
	}
}

// checkTasksRedisRestart kills Redis and starts it again, empty (no
// persistence), then with append-only persistence: a running task is
// written again from its owner's shadow in the first case and kept in the
// second; a task that had ended is lost in the first, kept in the second.
func checkTasksRedisRestart(t *testing.T, f *fleet, sum *summary) {
	cs := taskSession(t, f.url())
	for _, aof := range []bool{false, true} {
		name := "without append-only"
		if aof {
			name = "with appendonly yes"
			f.redis.kill()
			f.startRedisAOF(filepath.Join(outDir(), "redis-aof"))
			time.Sleep(3 * time.Second) // the replicas' heartbeats are written again
		}
		running := startTask(t, cs, "hold", nil)
		ended := startTask(t, cs, "sleep", map[string]any{"seconds": 0.2})
		started, ok := awaitEvent(running, "started", 10*time.Second)
		if !ok {
			t.Fatal("the hold task did not start")
		}
		// Read through a replica that does not run the task: its owner
		// answers from its own copy even before the record is back.
		elsewhere := taskSession(t, f.replicaURL(other(started.replica), "/mcp"))
		if d, _, err := awaitStatus(cs, ended, mcpfleet.TaskCompleted, 10*time.Second); d == nil || d.Status != mcpfleet.TaskCompleted {
			t.Fatalf("the sleep task: %s, %v", statusOf(d), err)
		}
		time.Sleep(1500 * time.Millisecond) // an fsync of the append-only file
		f.redis.kill()
		if aof {
			f.startRedisAOF(filepath.Join(outDir(), "redis-aof"))
		} else {
			f.startRedis()
		}
		back := time.Now()
		d, at, err := awaitStatus(elsewhere, running, mcpfleet.TaskWorking, 20*time.Second)
		runningOK := !at.IsZero()
		_, endedErr := getTask(cs, ended)
		endedSaid := "kept"
		endedOK := endedErr == nil
		if !aof {
			endedSaid, endedOK = "lost (-32602)", unknownTask(endedErr)
		}
		cerr := mcpclient.CancelTask(ctxFor(t, 5*time.Second), cs, running)
		_, cancelled := awaitEvent(running, "context ended", 10*time.Second)
		ok = runningOK && endedOK && cerr == nil && cancelled
		sum.add(ok, "Redis killed and restarted "+name, since(at, back),
			"a running task readable again after %s (%s, %v), then cancelled: %v; an ended task %s (%v)",
			since(at, back).Round(10*time.Millisecond), statusOf(d), err, cancelled, endedSaid, endedErr)
		if !ok {
			t.Errorf("Redis restarted %s: running task %s (%v), cancelled %v (%v); ended task: want %s, got %v", name, statusOf(d), err, cancelled, cerr, endedSaid, endedErr)
		}
	}
	f.redis.kill()
	f.startRedis()
}

// refusedRetryable reports whether a tools/call was refused with
// ServiceUnavailable, retryable: as a JSON-RPC error or as an error
// result.
func refusedRetryable(res *mcp.CallToolResult, err error) (bool, string) {
	if err != nil {
		return errorRetryable(err)
	}
	if res == nil || !res.IsError {
		if task := mcpclient.TaskOf(res); task != nil {
			return false, "a task: " + string(task.Status)
		}
		return false, fmt.Sprintf("a result: %+v", res)
	}
	e := mcpclient.ErrorOf(res)
	if e == nil {
		return false, fmt.Sprintf("an error result without an error: %+v", res)
	}
	retryable, _ := e.Data()["retryable"].(bool)
	return e.Code() == -32000 && retryable, fmt.Sprintf("error result %d %q retryable=%v", e.Code(), e.Message(), retryable)
}

// errorRetryable reports whether err is ServiceUnavailable, retryable.
func errorRetryable(err error) (bool, string) {
	if err == nil {
		return false, "no error"
	}
	e := mcpclient.FromRPC(err)
	retryable, _ := e.Data()["retryable"].(bool)
	return e.Code() == -32000 && retryable, fmt.Sprintf("%d %q retryable=%v", e.Code(), e.Message(), retryable)
}

// since is how long after from at was; 0 when at never came.
func since(at, from time.Time) time.Duration {
	if at.IsZero() {
		return 0
	}
	return at.Sub(from)
}
