package cluster

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpfleet "github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcpclient"
)

// checkTaskOwnerKilled SIGKILLs the replica running a task and measures
// how long tasks/get through the balancer takes to answer it failed,
// retryable: the owner's presence passing, found by a poll.
func checkTaskOwnerKilled(t *testing.T, f *fleet, sum *summary) {
	cs := taskSession(t, f.url())
	id := startTask(t, cs, "hold", nil)
	started, ok := awaitEvent(id, "started", 10*time.Second)
	if !ok {
		t.Fatal("the hold task did not start")
	}
	i := started.replica
	f.reps[i].signal(syscall.SIGKILL)
	killed := time.Now()
	f.reps[i].wait(5 * time.Second)
	d, at, err := awaitStatus(cs, id, mcpfleet.TaskFailed, 30*time.Second)
	took := at.Sub(killed)
	ok, said := failedRetryable(d)
	ok = ok && !at.IsZero()
	sum.add(ok, "task owner SIGKILLed: tasks/get via the balancer", took, "%s (the owner's presence is 6 s, its heartbeat 2 s)", said)
	if !ok {
		t.Errorf("a task whose replica was killed: %s, %v (want failed -32000 retryable within 30 s)", said, err)
	}
	f.startReplica(i)
	f.settle()
}

// checkTaskNonOwner cancels one task and answers another's question
// through a replica that does not run them, and measures how long their
// owner takes to see it: the handler's context ended, the handler run
// again with the answer.
func checkTaskNonOwner(t *testing.T, f *fleet, sum *summary) {
	cs := taskSession(t, f.url())
	id := startTask(t, cs, "hold", nil)
	started, ok := awaitEvent(id, "started", 10*time.Second)
	if !ok {
		t.Fatal("the hold task did not start")
	}
	j := other(started.replica)
	direct := taskSession(t, f.replicaURL(j, "/mcp"))
	sent := time.Now()
	if err := mcpclient.CancelTask(ctxFor(t, 5*time.Second), direct, id); err != nil {
		t.Fatalf("tasks/cancel on r%d: %v", j+1, err)
	}
	seen, ok := awaitEvent(id, "context ended", 30*time.Second)
	d, _, _ := awaitStatus(cs, id, mcpfleet.TaskCancelled, 10*time.Second)
	ok = ok && d != nil && d.Status == mcpfleet.TaskCancelled
	took := seen.at.Sub(sent)
	sum.add(ok, "tasks/cancel on a non-owner: the owner's handler cancelled", took, "%s after the ack; sent to r%d, task on r%d, status %s",
		took.Round(100*time.Microsecond), j+1, started.replica+1, statusOf(d))
	if !ok {
		t.Errorf("cancel through r%d of a task on r%d: handler's context ended %v, status %s", j+1, started.replica+1, !seen.at.IsZero(), statusOf(d))
	}

	id = startTask(t, cs, "ask", nil)
	asked, ok := awaitEvent(id, "asked", 10*time.Second)
	if !ok {
		t.Fatal("the ask task did not ask")
	}
	if d, _, err := awaitStatus(cs, id, mcpfleet.TaskInputRequired, 10*time.Second); d == nil || d.Status != mcpfleet.TaskInputRequired {
		t.Fatalf("the ask task is %s (%v), want input_required", statusOf(d), err)
	}
	j = other(asked.replica)
	direct = taskSession(t, f.replicaURL(j, "/mcp"))
	answer := json.RawMessage(`{"ok":{"action":"accept","content":{"ok":true}}}`)
	sent = time.Now()
	if err := mcpclient.UpdateTask(ctxFor(t, 5*time.Second), direct, id, answer); err != nil {
		t.Fatalf("tasks/update on r%d: %v", j+1, err)
	}
	resumed, ok := awaitEvent(id, "resumed (ok=true)", 30*time.Second)
	d, _, _ = awaitStatus(cs, id, mcpfleet.TaskCompleted, 10*time.Second)
	ok = ok && d != nil && d.Status == mcpfleet.TaskCompleted && resumed.replica == asked.replica
	took = resumed.at.Sub(sent)
	sum.add(ok, "tasks/update on a non-owner: the owner's round resumed", took, "%s after the ack; sent to r%d, task on r%d, resumed on r%d, status %s",
		took.Round(100*time.Microsecond), j+1, asked.replica+1, resumed.replica+1, statusOf(d))
	if !ok {
		t.Errorf("answer through r%d of a task on r%d: resumed %v on r%d, status %s", j+1, asked.replica+1, !resumed.at.IsZero(), resumed.replica+1, statusOf(d))
	}
}

// checkTaskOwnerPaused SIGSTOPs the replica running a task past its
// presence: a poll through the balancer ends the task failed; resumed, the
// owner finds it ended, and drops (and logs) the result it still makes.
func checkTaskOwnerPaused(t *testing.T, f *fleet, sum *summary) {
	cs := taskSession(t, f.url())
	id := startTask(t, cs, "sleep", map[string]any{"seconds": 3})
	started, ok := awaitEvent(id, "started", 10*time.Second)
	if !ok {
		t.Fatal("the sleep task did not start")
	}
	i := started.replica
	f.reps[i].signal(syscall.SIGSTOP)
	stopped := time.Now()
	d, at, err := awaitStatus(cs, id, mcpfleet.TaskFailed, 30*time.Second)
	failedOK, said := failedRetryable(d)
	tookFailed := at.Sub(stopped)
	f.reps[i].signal(syscall.SIGCONT)
	resumed := time.Now()
	logged, seen := awaitLog(i, "dropped the late result of task "+id+": it had already ended as failed", 30*time.Second)
	after, _ := getTask(cs, id)
	stillFailed, _ := failedRetryable(after)
	ok = failedOK && !at.IsZero() && seen && stillFailed
	sum.add(ok, "task owner SIGSTOPped past its presence, then resumed", tookFailed,
		"failed after %s stopped: %s; resumed, the owner logged the dropped result after %s; status then %s",
		tookFailed.Round(10*time.Millisecond), said, logged.Sub(resumed).Round(10*time.Millisecond), statusOf(after))
	if !ok {
		t.Errorf("a paused owner: %s (%v); late result logged: %v; after: %s", said, err, seen, statusOf(after))
	}
	f.settle()
}

// A ttlProbe is two tasks of short_lived (TTL 4 s), started early and
// read at their TTL's end and after the retention: one ends within the
// TTL, one runs past it.
type ttlProbe struct {
	cs             *mcp.ClientSession
	done, outlived string
	started        time.Time
}

// start starts the two tasks, and reads them at their TTL's end. The
// probe's session is the caller's, since it outlives this check.
func (p *ttlProbe) start(t *testing.T, sum *summary) {
	p.started = time.Now()
	p.done = startTask(t, p.cs, "short_lived", map[string]any{"seconds": 1})
	p.outlived = startTask(t, p.cs, "short_lived", map[string]any{"seconds": 60})
	time.Sleep(time.Until(p.started.Add(4*time.Second + 200*time.Millisecond)))
	done, derr := getTask(p.cs, p.done)
	outlived, oerr := getTask(p.cs, p.outlived)
	failedOK, said := failedRetryable(outlived)
	ok := derr == nil && done.Status == mcpfleet.TaskCompleted && oerr == nil && failedOK
	sum.add(ok, "tasks read at their TTL's end (4 s)", time.Since(p.started),
		"ended within: %s, ttlMs %s; ran past: %s, ttlMs %s", statusOf(done), ttlOf(done), said, ttlOf(outlived))
	if !ok {
		t.Errorf("at the TTL's end: %s (%v); %s (%v)", statusOf(done), derr, said, oerr)
	}
}

// finish reads both tasks until they are unknown, and says when that was,
// from their creation, against their ttlMs (grown to cover the retention).
func (p *ttlProbe) finish(t *testing.T, sum *summary) {
	if p.done == "" || p.outlived == "" {
		t.Skip("the tasks were not started")
	}
	for _, id := range []string{p.done, p.outlived} {
		// Read once more a second before its (grown) TTL passes: readable
		// through the retention.
		if first, err := getTask(p.cs, id); err == nil {
			if ms, err := first.TTLMs.Int64(); err == nil {
				time.Sleep(time.Until(p.started.Add(time.Duration(ms)*time.Millisecond - time.Second)))
			}
		}
		readAt := time.Since(p.started)
		last, err := getTask(p.cs, id)
		readable := err == nil
		ttl := ttlOf(last)
		var gone time.Duration
		for gone == 0 && time.Since(p.started) < 100*time.Second {
			if _, err := getTask(p.cs, id); unknownTask(err) {
				gone = time.Since(p.started)
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		ok := readable && gone > 0
		sum.add(ok, "a task read after its TTL and the retention", gone, "readable %s after its creation (%s, ttlMs %s); unknown (-32602) %s after it",
			readAt.Round(100*time.Millisecond), statusOf(last), ttl, gone.Round(100*time.Millisecond))
		if !ok {
			t.Errorf("task %s: readable after a minute %v, unknown after %s (want -32602 within 100 s)", id, readable, gone)
		}
	}
}

func statusOf(d *mcpclient.DetailedTask) string {
	if d == nil {
		return "(none)"
	}
	return string(d.Status)
}

func ttlOf(d *mcpclient.DetailedTask) string {
	if d == nil {
		return "?"
	}
	return d.TTLMs.String()
}

// rollingTasks are the two tasks a replica runs as the rolling restart
// stops it: one shorter than its grace, one longer.
type rollingTasks struct {
	short, long  string
	term, exited time.Time
}

func startRollingTasks(t *testing.T, f *fleet, i int) rollingTasks {
	cs := taskSession(t, f.replicaURL(i, "/mcp"))
	r := rollingTasks{
		short: startTask(t, cs, "sleep", map[string]any{"seconds": 1.5}),
		long:  startTask(t, cs, "sleep", map[string]any{"seconds": 60}),
	}
	for _, id := range []string{r.short, r.long} {
		if _, ok := awaitEvent(id, "started", 10*time.Second); !ok {
			t.Fatalf("a task on r%d did not start", i+1)
		}
	}
	return r
}

// checkRollingTasks reads, through the balancer, the tasks each replica
// ran as it was stopped: the shorter than the grace completed, the longer
// failed, retryable.
func checkRollingTasks(t *testing.T, f *fleet, sum *summary, tasks [3]rollingTasks) {
	cs := taskSession(t, f.url())
	var slowest, longest time.Duration
	bad := 0
	var said []string
	for i, r := range tasks {
		short, _, serr := awaitStatus(cs, r.short, mcpfleet.TaskCompleted, 10*time.Second)
		long, _, lerr := awaitStatus(cs, r.long, mcpfleet.TaskFailed, 10*time.Second)
		longOK, longSaid := failedRetryable(long)
		if short == nil || short.Status != mcpfleet.TaskCompleted || !longOK {
			bad++
			t.Errorf("r%d's tasks after its SIGTERM: shorter than the grace %s (%v), longer %s (%v)", i+1, statusOf(short), serr, longSaid, lerr)
		}
		said = append(said, fmt.Sprintf("r%d: %s, %s", i+1, statusOf(short), longSaid))
		if e, ok := findEvent(r.long, "context ended"); ok {
			longest = max(longest, e.at.Sub(r.term))
		}
		slowest = max(slowest, r.exited.Sub(r.term))
	}
	sum.add(bad == 0, "rolling SIGTERM: tasks shorter and longer than the grace", longest,
		"grace 3 s; the longer tasks' handlers cancelled at most %s after SIGTERM, replicas exited within %s; %s",
		longest.Round(10*time.Millisecond), slowest.Round(10*time.Millisecond), strings.Join(said, "; "))
}
