package mcpcore

import (
	"context"
	"testing"
)

// TestTaskRereadLoopFollowsRunningTasks: the first task to run starts the
// loop that re-reads the running tasks, a second does not start another,
// the loop stops at its first pass with none running, and the next task
// starts it again.
func TestTaskRereadLoopFollowsRunningTasks(t *testing.T) {
	r := newTaskRunner(4)
	task := runningTask{cancel: func(error) {}}
	add := func(id string) bool {
		t.Helper()
		if !r.reserve() {
			t.Fatal("no place")
		}
		return r.add(id, task)
	}
	if !add("a") {
		t.Error("the first task did not start the loop")
	}
	if add("b") {
		t.Error("a second task started another loop")
	}
	if refs, _, ok := r.toReread(); !ok || len(refs) != 2 {
		t.Errorf("a pass with two tasks running reads %d, going on %v", len(refs), ok)
	}
	r.remove("a")
	r.remove("b")
	if _, _, ok := r.toReread(); ok {
		t.Error("the loop goes on with no task running")
	}
	if !add("c") {
		t.Error("a task after the loop stopped did not start it again")
	}
	r.rereadStopped() // as at shutdown
	if !add("d") {
		t.Error("a task after a shutdown's stop did not start the loop")
	}
	r.remove("c")
	r.remove("d")
	r.wait(context.Background())
}
