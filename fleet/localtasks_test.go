package fleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/fleet/taskstoretest"
)

func TestLocalTasksConforms(t *testing.T) {
	taskstoretest.Run(t, func(*testing.T) fleet.TaskStore {
		clock := taskstoretest.NewClock()
		return taskstoretest.Clocked{TaskStore: fleet.NewLocalTasks(fleet.LocalTasksOptions{Now: clock.Now}), Clock: clock}
	})
}

// The suite also passes without a clock to move, skipping the tests of time.
func TestLocalTasksConformsOnRealTime(t *testing.T) {
	taskstoretest.Run(t, func(*testing.T) fleet.TaskStore { return &fleet.LocalTasks{} })
}

var bg = context.Background()

func working(id string, outcomeBytes int) fleet.Task {
	t := fleet.Task{ID: id, Principal: "p", Status: fleet.TaskWorking, TTL: time.Minute}
	if outcomeBytes > 0 {
		t.Status, t.Outcome = fleet.TaskCompleted, json.RawMessage(`"`+strings.Repeat("x", outcomeBytes-2)+`"`)
	}
	return t
}

// A full store refuses new tasks with ErrTaskStoreFull and keeps every live
// one; a task that expires makes room again, read or not.
func TestLocalTasksBoundsRecords(t *testing.T) {
	clock := taskstoretest.NewClock()
	s := fleet.NewLocalTasks(fleet.LocalTasksOptions{MaxRecords: 3, Now: clock.Now})
	for _, id := range []string{"a", "b", "c"} {
		task := working(id, 0)
		task.TTL = 10 * time.Second
		if _, err := s.Create(bg, task); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Create(bg, working("d", 0)); !errors.Is(err, fleet.ErrTaskStoreFull) {
		t.Fatalf("a fourth task in a store of 3: %v, want ErrTaskStoreFull", err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := s.Get(bg, id, "p"); err != nil {
			t.Errorf("task %s after a refused Create: %v", id, err)
		}
	}
	// Ended tasks still count: their clients read them until the TTL.
	clock.Advance(5 * time.Second)
	if err := s.Cancel(bg, "a", "p", "stop"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(bg, working("d", 0)); !errors.Is(err, fleet.ErrTaskStoreFull) {
		t.Fatalf("a task in a store full of 3, one cancelled: %v, want ErrTaskStoreFull", err)
	}
	// b and c expire, long before the minute's sweep; a, cancelled, is
	// kept for its retention. Nobody reads b or c, yet Create finds their
	// room.
	clock.Advance(5 * time.Second)
	if _, err := s.Create(bg, working("d", 0)); err != nil {
		t.Fatalf("Create once two tasks expired: %v", err)
	}
	if _, err := s.Create(bg, working("e", 0)); err != nil {
		t.Fatalf("Create of a second task once two expired: %v", err)
	}
	if _, err := s.Get(bg, "a", "p"); err != nil {
		t.Errorf("the cancelled task, within its retention: %v", err)
	}
}

// Outcomes, questions and answers count against MaxBytes: a Create, an
// Update or an Answer that would pass it is refused and changes nothing,
// while a cancel is always taken.
func TestLocalTasksBoundsBytes(t *testing.T) {
	clock := taskstoretest.NewClock()
	s := fleet.NewLocalTasks(fleet.LocalTasksOptions{MaxBytes: 1000, Now: clock.Now})
	if _, err := s.Create(bg, working("big", 600)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(bg, working("big2", 600)); !errors.Is(err, fleet.ErrTaskStoreFull) {
		t.Fatalf("600 bytes more in a store of 1000 holding 600: %v, want ErrTaskStoreFull", err)
	}
	if _, err := s.Create(bg, working("small", 0)); err != nil {
		t.Fatalf("a small task still fits: %v", err)
	}
	q := json.RawMessage(`"` + strings.Repeat("q", 100) + `"`)
	if _, err := s.Update(bg, "small", s.Self(), fleet.TaskChange{Status: fleet.TaskInputRequired, Questions: map[string]json.RawMessage{"k": q}}); err != nil {
		t.Fatalf("a question of 100 bytes: %v", err)
	}
	big := json.RawMessage(`"` + strings.Repeat("a", 400) + `"`)
	if err := s.Answer(bg, "small", "p", map[string]json.RawMessage{"k": big}); !errors.Is(err, fleet.ErrTaskStoreFull) {
		t.Fatalf("an answer of 400 bytes past the bound: %v, want ErrTaskStoreFull", err)
	}
	if got, _ := s.Get(bg, "small", "p"); got.Status != fleet.TaskInputRequired || len(got.Answers) != 0 {
		t.Fatalf("a refused answer changed the task: %+v", got)
	}
	if _, err := s.Update(bg, "small", s.Self(), fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: big}); !errors.Is(err, fleet.ErrTaskStoreFull) {
		t.Fatalf("an outcome of 400 bytes past the bound: %v, want ErrTaskStoreFull", err)
	}
	if got, _ := s.Get(bg, "small", "p"); got.Status != fleet.TaskInputRequired {
		t.Fatalf("a refused update changed the task: %+v", got)
	}
	// A small answer fits and takes the task back to work.
	if err := s.Answer(bg, "small", "p", map[string]json.RawMessage{"k": json.RawMessage(`true`)}); err != nil {
		t.Fatalf("a small answer: %v", err)
	}
	if err := s.Cancel(bg, "small", "p", strings.Repeat("m", 500)); err != nil {
		t.Fatalf("a cancel past the bound: %v, want it taken", err)
	}
	// Once the big one expires its bytes are free.
	clock.Advance(time.Minute)
	if _, err := s.Create(bg, working("big2", 600)); err != nil {
		t.Fatalf("600 bytes once the first 600 expired: %v", err)
	}
	// Once all have expired, every byte is back: a task of exactly the
	// bound fits (id 4, principal 1, owner 5, outcome 990), one byte more
	// would not.
	clock.Advance(2 * time.Minute)
	if _, err := s.Create(bg, working("ful+", 991)); !errors.Is(err, fleet.ErrTaskStoreFull) {
		t.Fatalf("a task of 1001 bytes in a store of 1000: %v, want ErrTaskStoreFull", err)
	}
	if _, err := s.Create(bg, working("full", 990)); err != nil {
		t.Fatalf("a task of 1000 bytes in an empty store of 1000: %v", err)
	}
}

// Negative bounds mean none.
func TestLocalTasksUnbounded(t *testing.T) {
	s := fleet.NewLocalTasks(fleet.LocalTasksOptions{MaxRecords: -1, MaxBytes: -1})
	for i := range 3 {
		if _, err := s.Create(bg, working(strings.Repeat("i", i+1), 1<<20)); err != nil {
			t.Fatal(err)
		}
	}
}
