// Package taskstoretest checks that a [fleet.TaskStore] keeps the promises
// the server relies on: that a terminal status is final, that another
// principal's task does not exist, that answers move only outstanding
// questions, that records expire at their TTL and no sooner, and that what a
// caller holds never aliases what is stored. Every implementation runs it:
// [fleet.LocalTasks] in package fleet's tests, the Redis store in its own.
package taskstoretest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// Run runs the suite against the stores newStore makes, one fresh and
// empty store per subtest. A store that is an [Advancer] (such as a
// [Clocked]) is tested for expiry through its clock; for one that is not,
// those subtests are skipped, with the reason.
func Run(t *testing.T, newStore func(t *testing.T) fleet.TaskStore) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, fleet.TaskStore)
	}{
		{"CreateThenGet", testCreateThenGet},
		{"CreateIsSetIfAbsent", testCreateIsSetIfAbsent},
		{"CreateRefusesBadShapes", testCreateRefusesBadShapes},
		{"UnknownIDIsNotFound", testUnknownIDIsNotFound},
		{"OtherPrincipalIsNotFound", testOtherPrincipalIsNotFound},
		{"TerminalIsFinal", testTerminalIsFinal},
		{"ConcurrentEndsOneWins", testConcurrentEndsOneWins},
		{"PartialAnswers", testPartialAnswers},
		{"UnknownAnswerKeysIgnored", testUnknownAnswerKeysIgnored},
		{"CancelEnds", testCancelEnds},
		{"CancelOfTerminalChangesNothing", testCancelOfTerminalChangesNothing},
		{"UpdateByAnotherOwnerRefused", testUpdateByAnotherOwnerRefused},
		{"UpdateRefusesBadShapes", testUpdateRefusesBadShapes},
		{"UpdateMessageKeepsStatus", testUpdateMessageKeepsStatus},
		{"Abandon", testAbandon},
		{"Copies", testCopies},
		{"ExpiryAfterTTL", testExpiryAfterTTL},
		{"TerminalRetained", testTerminalRetained},
		{"UpdatedFollowsClock", testUpdatedFollowsClock},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, newStore(t)) })
	}
	runList(t, newStore)
}

const (
	alice   = "principal-alice"
	mallory = "principal-mallory"
)

var ctx = context.Background()

// newTask is a working task of alice's owned by s, with a fresh id.
func newTask(s fleet.TaskStore) fleet.Task {
	return fleet.Task{
		ID:           rand.Text(),
		Tool:         "slow_compute",
		Principal:    alice,
		Owner:        s.Self(),
		Status:       fleet.TaskWorking,
		Message:      "starting",
		TTL:          time.Hour,
		PollInterval: time.Second,
	}
}

// questions are two outstanding questions, a and b.
func questions() map[string]json.RawMessage {
	return map[string]json.RawMessage{
		"a": json.RawMessage(`{"method":"elicitation/create","params":{"message":"a?"}}`),
		"b": json.RawMessage(`{"method":"elicitation/create","params":{"message":"b?"}}`),
	}
}

var (
	result  = json.RawMessage(`{"content":[{"type":"text","text":"computed"}]}`)
	gone    = json.RawMessage(`{"code":-32000,"message":"The replica running this task stopped.","data":{"retryable":true}}`)
	cancel  = "Cancelled by the client."
	stopped = "The replica running this task stopped."
)

func create(t *testing.T, s fleet.TaskStore, task fleet.Task) fleet.Task {
	t.Helper()
	got, err := s.Create(ctx, task)
	if err != nil {
		t.Fatalf("Create(%s): %v", task.Status, err)
	}
	return got
}

func get(t *testing.T, s fleet.TaskStore, id string) fleet.Task {
	t.Helper()
	got, err := s.Get(ctx, id, alice)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	return got
}

// inputRequired creates a task of alice's waiting for answers to a and b.
func inputRequired(t *testing.T, s fleet.TaskStore) fleet.Task {
	t.Helper()
	task := newTask(s)
	task.Status, task.Questions = fleet.TaskInputRequired, questions()
	return create(t, s, task)
}

// same reports the differences between two tasks, times compared as
// instants.
func same(t *testing.T, what string, got, want fleet.Task) {
	t.Helper()
	if !got.Created.Equal(want.Created) || !got.Updated.Equal(want.Updated) {
		t.Errorf("%s: times created %v updated %v, want %v and %v", what, got.Created, got.Updated, want.Created, want.Updated)
	}
	got.Created, got.Updated, want.Created, want.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if got.ID != want.ID || got.Tool != want.Tool || got.Principal != want.Principal || got.Owner != want.Owner ||
		got.Status != want.Status || got.Message != want.Message || got.TTL != want.TTL ||
		got.PollInterval != want.PollInterval || got.OwnerGone != want.OwnerGone {
		t.Errorf("%s:\n got  %+v\n want %+v", what, got, want)
	}
	if !sameRaw(got.Questions, want.Questions) {
		t.Errorf("%s: questions %s, want %s", what, keys(got.Questions), keys(want.Questions))
	}
	if !sameRaw(got.Answers, want.Answers) {
		t.Errorf("%s: answers %s, want %s", what, keys(got.Answers), keys(want.Answers))
	}
	if !bytes.Equal(got.Outcome, want.Outcome) {
		t.Errorf("%s: outcome %s, want %s", what, got.Outcome, want.Outcome)
	}
}

func sameRaw(a, b map[string]json.RawMessage) bool {
	return maps.EqualFunc(a, b, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}

func keys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func is(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errchain.Is(err, want) {
		t.Errorf("%s: error %v, want %v", what, err, want)
	}
}

func testCreateThenGet(t *testing.T, s fleet.TaskStore) {
	task := newTask(s)
	created := create(t, s, task)
	if created.Created.IsZero() || !created.Updated.Equal(created.Created) {
		t.Errorf("Create set created %v, updated %v: want the store's now, twice", created.Created, created.Updated)
	}
	want := task
	want.Created, want.Updated = created.Created, created.Created
	same(t, "Create's return", created, want)
	same(t, "Get after Create", get(t, s, task.ID), want)

	// An empty owner is this replica.
	task = newTask(s)
	task.Owner = ""
	if got := create(t, s, task); got.Owner != s.Self() {
		t.Errorf("Create with no owner stored owner %q, want Self %q", got.Owner, s.Self())
	}

	// A task created already ended, as a TaskRequired call that finished
	// within its window is, holds its outcome and is kept at least
	// TaskRetention.
	task = newTask(s)
	task.Status, task.Outcome, task.TTL = fleet.TaskCompleted, result, time.Second
	created = create(t, s, task)
	if created.TTL < fleet.TaskRetention {
		t.Errorf("a task created completed with a TTL of 1s kept for %s, want at least %s", created.TTL, fleet.TaskRetention)
	}
	same(t, "Get of a task created completed", get(t, s, task.ID), created)
}

func testCreateIsSetIfAbsent(t *testing.T, s fleet.TaskStore) {
	first := create(t, s, newTask(s))
	again := newTask(s)
	again.ID, again.Tool, again.Principal = first.ID, "other_tool", mallory
	_, err := s.Create(ctx, again)
	is(t, "a second Create of the same id", err, fleet.ErrTaskExists)
	same(t, "the first task after a second Create", get(t, s, first.ID), first)
}

func testCreateRefusesBadShapes(t *testing.T, s fleet.TaskStore) {
	for name, edit := range map[string]func(*fleet.Task){
		"no id":                           func(k *fleet.Task) { k.ID = "" },
		"no TTL":                          func(k *fleet.Task) { k.TTL = 0 },
		"unknown status":                  func(k *fleet.Task) { k.Status = "paused" },
		"input_required without question": func(k *fleet.Task) { k.Status = fleet.TaskInputRequired },
		"questions while working":         func(k *fleet.Task) { k.Questions = questions() },
		"completed without outcome":       func(k *fleet.Task) { k.Status = fleet.TaskCompleted },
		"outcome while working":           func(k *fleet.Task) { k.Outcome = result },
		"answers":                         func(k *fleet.Task) { k.Answers = questions() },
	} {
		task := newTask(s)
		edit(&task)
		if _, err := s.Create(ctx, task); err == nil {
			t.Errorf("Create of a task with %s succeeded", name)
		} else if task.ID != "" {
			if _, err := s.Get(ctx, task.ID, alice); !errchain.Is(err, fleet.ErrTaskNotFound) {
				t.Errorf("a task with %s was refused, yet Get says %v", name, err)
			}
		}
	}
}

func testUnknownIDIsNotFound(t *testing.T, s fleet.TaskStore) {
	id := rand.Text()
	_, err := s.Get(ctx, id, alice)
	is(t, "Get", err, fleet.ErrTaskNotFound)
	_, err = s.Update(ctx, id, s.Self(), fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
	is(t, "Update", err, fleet.ErrTaskNotFound)
	is(t, "Answer", s.Answer(ctx, id, alice, questions()), fleet.ErrTaskNotFound)
	is(t, "Cancel", s.Cancel(ctx, id, alice, cancel), fleet.ErrTaskNotFound)
	_, err = s.Abandon(ctx, id, s.Self(), gone, stopped)
	is(t, "Abandon", err, fleet.ErrTaskNotFound)
}

// Another principal learns nothing, not even that the task exists: its
// errors are those of an unknown id, word for word, and it changes nothing.
func testOtherPrincipalIsNotFound(t *testing.T, s fleet.TaskStore) {
	task := inputRequired(t, s)
	unknown := rand.Text()
	_, errUnknown := s.Get(ctx, unknown, alice)
	for _, p := range []string{mallory, ""} {
		_, err := s.Get(ctx, task.ID, p)
		is(t, "Get by another principal", err, fleet.ErrTaskNotFound)
		if err != nil && errUnknown != nil && err.Error() != errUnknown.Error() {
			t.Errorf("Get by another principal says %q, an unknown id %q: existence leaks", err, errUnknown)
		}
		err = s.Answer(ctx, task.ID, p, questions())
		is(t, "Answer by another principal", err, fleet.ErrTaskNotFound)
		if err != nil && err.Error() != s.Answer(ctx, unknown, alice, questions()).Error() {
			t.Errorf("Answer by another principal says %q, unlike an unknown id", err)
		}
		err = s.Cancel(ctx, task.ID, p, cancel)
		is(t, "Cancel by another principal", err, fleet.ErrTaskNotFound)
		if err != nil && err.Error() != s.Cancel(ctx, unknown, alice, cancel).Error() {
			t.Errorf("Cancel by another principal says %q, unlike an unknown id", err)
		}
	}
	same(t, "the task after another principal's calls", get(t, s, task.ID), task)
}

func testTerminalIsFinal(t *testing.T, s fleet.TaskStore) {
	for _, end := range []fleet.TaskStatus{fleet.TaskCompleted, fleet.TaskFailed, fleet.TaskCancelled} {
		task := inputRequired(t, s)
		c := fleet.TaskChange{Status: end}
		if end != fleet.TaskCancelled {
			c.Outcome = result
		}
		ended, err := s.Update(ctx, task.ID, task.Owner, c)
		if err != nil {
			t.Fatalf("Update to %s: %v", end, err)
		}
		if ended.Status != end || len(ended.Questions) != 0 {
			t.Errorf("after Update to %s: status %s, %d questions", end, ended.Status, len(ended.Questions))
		}
		got, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskWorking})
		is(t, "Update of an ended task", err, fleet.ErrTaskEnded)
		if got.Status != end {
			t.Errorf("Update of a task ended %s returned status %q with ErrTaskEnded, want the record", end, got.Status)
		}
		msg := "late"
		_, err = s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Message: &msg})
		is(t, "Update of an ended task's message", err, fleet.ErrTaskEnded)
		_, err = s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskFailed, Outcome: gone})
		is(t, "Update of an ended task to failed", err, fleet.ErrTaskEnded)
		is(t, "Answer to an ended task", s.Answer(ctx, task.ID, alice, questions()), fleet.ErrTaskEnded)
		is(t, "Cancel of an ended task", s.Cancel(ctx, task.ID, alice, cancel), fleet.ErrTaskEnded)
		got, err = s.Abandon(ctx, task.ID, task.Owner, gone, stopped)
		is(t, "Abandon of an ended task", err, fleet.ErrTaskEnded)
		if got.Status != end {
			t.Errorf("Abandon of a task ended %s returned status %q with ErrTaskEnded, want the record", end, got.Status)
		}
		same(t, "a task ended "+string(end)+" after later calls", get(t, s, task.ID), ended)
	}
}

// The owner's result, a client's cancel and another replica's abandon race
// for the same task, many times: exactly one wins each time, the others get
// ErrTaskEnded, and the record says the winner's status.
func testConcurrentEndsOneWins(t *testing.T, s fleet.TaskStore) {
	const rounds = 200
	for round := range rounds {
		task := create(t, s, newTask(s))
		var errs [3]error
		ends := [3]func(){
			func() {
				_, errs[0] = s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
			},
			func() { errs[1] = s.Cancel(ctx, task.ID, alice, cancel) },
			func() { _, errs[2] = s.Abandon(ctx, task.ID, task.Owner, gone, stopped) },
		}
		// Each round starts them in another order, so that each gets to
		// go first.
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range ends {
			end := ends[(i+round)%len(ends)]
			wg.Go(func() { <-start; end() })
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("two ends both won: %d and %d", winner, i)
			case err == nil:
				winner = i
			case !errchain.Is(err, fleet.ErrTaskEnded):
				t.Fatalf("end %d lost with %v, want ErrTaskEnded", i, err)
			}
		}
		if winner < 0 {
			t.Fatal("no end won")
		}
		want := []fleet.TaskStatus{fleet.TaskCompleted, fleet.TaskCancelled, fleet.TaskFailed}[winner]
		if got := get(t, s, task.ID); got.Status != want {
			t.Fatalf("end %d won, but the task is %s, want %s", winner, got.Status, want)
		}
	}
}

func testPartialAnswers(t *testing.T, s fleet.TaskStore) {
	task := inputRequired(t, s)
	yes := json.RawMessage(`{"action":"accept","content":{"ok":true}}`)
	if err := s.Answer(ctx, task.ID, alice, map[string]json.RawMessage{"a": yes}); err != nil {
		t.Fatalf("Answer a: %v", err)
	}
	got := get(t, s, task.ID)
	if got.Status != fleet.TaskInputRequired {
		t.Errorf("after answering a of a and b: status %s, want input_required", got.Status)
	}
	if !sameRaw(got.Questions, map[string]json.RawMessage{"b": task.Questions["b"]}) {
		t.Errorf("after answering a: questions %v, want b alone", keys(got.Questions))
	}
	if !sameRaw(got.Answers, map[string]json.RawMessage{"a": yes}) {
		t.Errorf("after answering a: answers %v, want a", keys(got.Answers))
	}

	// An answered key is no longer outstanding: a second answer to it is
	// ignored, and the first kept.
	no := json.RawMessage(`{"action":"decline"}`)
	if err := s.Answer(ctx, task.ID, alice, map[string]json.RawMessage{"a": no, "b": yes}); err != nil {
		t.Fatalf("Answer b: %v", err)
	}
	got = get(t, s, task.ID)
	if got.Status != fleet.TaskWorking || len(got.Questions) != 0 {
		t.Errorf("after the last answer: status %s with %d questions, want working with none", got.Status, len(got.Questions))
	}
	want := map[string]json.RawMessage{"a": yes, "b": yes}
	if !sameRaw(got.Answers, want) {
		t.Errorf("answers %s, want a and b, each its first answer", got.Answers)
	}

	// The owner takes them once.
	taken, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{TakeAnswers: true})
	if err != nil {
		t.Fatalf("Update taking answers: %v", err)
	}
	if !sameRaw(taken.Answers, want) {
		t.Errorf("Update taking answers returned %v, want a and b", keys(taken.Answers))
	}
	if got := get(t, s, task.ID); len(got.Answers) != 0 || got.Status != fleet.TaskWorking {
		t.Errorf("after the answers were taken: %d kept, status %s; want none kept, working", len(got.Answers), got.Status)
	}
	taken, err = s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{TakeAnswers: true})
	if err != nil || len(taken.Answers) != 0 {
		t.Errorf("answers taken twice: %v, %v", keys(taken.Answers), err)
	}

	// A new round asks again.
	asked, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskInputRequired, Questions: map[string]json.RawMessage{"c": task.Questions["a"]}})
	if err != nil || asked.Status != fleet.TaskInputRequired || len(asked.Questions) != 1 {
		t.Errorf("a second round of questions: %+v, %v", asked, err)
	}
}

func testUnknownAnswerKeysIgnored(t *testing.T, s fleet.TaskStore) {
	task := inputRequired(t, s)
	if err := s.Answer(ctx, task.ID, alice, map[string]json.RawMessage{"zzz": json.RawMessage(`{}`)}); err != nil {
		t.Fatalf("Answer with an unknown key: %v", err)
	}
	same(t, "after an answer to no question", get(t, s, task.ID), task)

	// A working task has no question: any answer is ignored.
	working := create(t, s, newTask(s))
	if err := s.Answer(ctx, working.ID, alice, questions()); err != nil {
		t.Fatalf("Answer to a working task: %v", err)
	}
	same(t, "a working task after an answer", get(t, s, working.ID), working)
}

func testCancelEnds(t *testing.T, s fleet.TaskStore) {
	task := inputRequired(t, s)
	if err := s.Answer(ctx, task.ID, alice, map[string]json.RawMessage{"a": json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Cancel(ctx, task.ID, alice, cancel); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	got := get(t, s, task.ID)
	if got.Status != fleet.TaskCancelled || got.Message != cancel || len(got.Questions)+len(got.Answers)+len(got.Outcome) != 0 {
		t.Errorf("after Cancel: %+v; want cancelled, %q, no questions, answers or outcome", got, cancel)
	}
	_, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
	is(t, "the owner's late result after a cancel", err, fleet.ErrTaskEnded)
}

func testCancelOfTerminalChangesNothing(t *testing.T, s fleet.TaskStore) {
	task := create(t, s, newTask(s))
	msg := "done"
	done, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result, Message: &msg})
	if err != nil {
		t.Fatal(err)
	}
	is(t, "Cancel of a completed task", s.Cancel(ctx, task.ID, alice, cancel), fleet.ErrTaskEnded)
	same(t, "a completed task after Cancel", get(t, s, task.ID), done)
}

func testUpdateByAnotherOwnerRefused(t *testing.T, s fleet.TaskStore) {
	task := inputRequired(t, s)
	other := s.Self() + "-other"
	_, err := s.Update(ctx, task.ID, other, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
	is(t, "Update by another owner", err, fleet.ErrTaskNotOwner)
	_, err = s.Update(ctx, task.ID, other, fleet.TaskChange{TakeAnswers: true})
	is(t, "Update taking answers by another owner", err, fleet.ErrTaskNotOwner)
	_, err = s.Abandon(ctx, task.ID, other, gone, stopped)
	is(t, "Abandon naming another owner", err, fleet.ErrTaskNotOwner)
	same(t, "the task after another owner's calls", get(t, s, task.ID), task)
}

func testUpdateRefusesBadShapes(t *testing.T, s fleet.TaskStore) {
	task := create(t, s, newTask(s))
	for name, c := range map[string]fleet.TaskChange{
		"input_required without question": {Status: fleet.TaskInputRequired},
		"questions without a status":      {Questions: questions()},
		"questions while working":         {Status: fleet.TaskWorking, Questions: questions()},
		"completed without outcome":       {Status: fleet.TaskCompleted},
		"failed without outcome":          {Status: fleet.TaskFailed},
		"an outcome without a status":     {Outcome: result},
		"an outcome while cancelled":      {Status: fleet.TaskCancelled, Outcome: result},
		"unknown status":                  {Status: "paused"},
	} {
		if _, err := s.Update(ctx, task.ID, task.Owner, c); err == nil {
			t.Errorf("Update with %s succeeded", name)
		}
	}
	same(t, "the task after refused updates", get(t, s, task.ID), task)
}

func testUpdateMessageKeepsStatus(t *testing.T, s fleet.TaskStore) {
	task := inputRequired(t, s)
	msg := "3 of 7"
	got, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Message: &msg})
	if err != nil {
		t.Fatal(err)
	}
	want := task
	want.Message, want.Updated = msg, got.Updated
	same(t, "Update of the message alone", got, want)
	same(t, "Get after an Update of the message", get(t, s, task.ID), want)

	// Back to working drops the questions.
	got, err = s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskWorking})
	if err != nil || got.Status != fleet.TaskWorking || len(got.Questions) != 0 || got.Message != msg {
		t.Errorf("Update to working: %+v, %v; want working, no questions, message kept", got, err)
	}
}

func testAbandon(t *testing.T, s fleet.TaskStore) {
	task := inputRequired(t, s)
	got, err := s.Abandon(ctx, task.ID, task.Owner, gone, stopped)
	if err != nil {
		t.Fatalf("Abandon: %v", err)
	}
	if got.Status != fleet.TaskFailed || got.Message != stopped || !bytes.Equal(got.Outcome, gone) || len(got.Questions) != 0 {
		t.Errorf("Abandon returned %+v; want failed, %q, its outcome, no questions", got, stopped)
	}
	same(t, "Get after Abandon", get(t, s, task.ID), got)
	if _, err := s.Abandon(ctx, task.ID, task.Owner, nil, stopped); err == nil {
		t.Error("Abandon without an outcome succeeded")
	}
}

// Nothing a caller passes in or gets out aliases the record.
func testCopies(t *testing.T, s fleet.TaskStore) {
	task := newTask(s)
	task.Status, task.Questions = fleet.TaskInputRequired, questions()
	created := create(t, s, task)
	want := created
	want.Questions = questions()

	task.Questions["a"][2] = 'X'
	task.Questions["z"] = json.RawMessage(`{}`)
	delete(task.Questions, "b")
	created.Questions["a"][2] = 'Y'
	delete(created.Questions, "b")
	got := get(t, s, task.ID)
	same(t, "after the maps given to and returned by Create changed", got, want)

	got.Questions["a"][2] = 'Z'
	got.Questions["y"] = json.RawMessage(`{}`)
	same(t, "after the map Get returned changed", get(t, s, task.ID), want)

	answer := json.RawMessage(`{"action":"accept"}`)
	answers := map[string]json.RawMessage{"a": answer}
	if err := s.Answer(ctx, task.ID, alice, answers); err != nil {
		t.Fatal(err)
	}
	answer[2] = 'X'
	answers["b"] = json.RawMessage(`{}`)
	got = get(t, s, task.ID)
	if string(got.Answers["a"]) != `{"action":"accept"}` || len(got.Questions) != 1 {
		t.Errorf("after the map given to Answer changed: answers %s, questions %v", got.Answers, keys(got.Questions))
	}

	asked := questions()
	updated, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskInputRequired, Questions: asked})
	if err != nil {
		t.Fatal(err)
	}
	asked["a"][2] = 'X'
	updated.Questions["b"][2] = 'X'
	updated.Answers["a"][2] = 'X'
	if got := get(t, s, task.ID); !sameRaw(got.Questions, questions()) || string(got.Answers["a"]) != `{"action":"accept"}` {
		t.Errorf("after the maps given to and returned by Update changed: questions %s, answers %s", got.Questions, got.Answers)
	}

	outcome := bytes.Clone(result)
	done, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: outcome})
	if err != nil {
		t.Fatal(err)
	}
	outcome[0], done.Outcome[1] = 'X', 'X'
	got = get(t, s, task.ID)
	got.Outcome[2] = 'X'
	if got := get(t, s, task.ID); !bytes.Equal(got.Outcome, result) {
		t.Errorf("after the outcomes given and returned changed: %s", got.Outcome)
	}
}

// advancer returns s's clock, or skips the test.
func advancer(t *testing.T, s fleet.TaskStore) Advancer {
	t.Helper()
	a, ok := s.(Advancer)
	if !ok {
		t.Skipf("the store (%T) is not an Advancer: its clock cannot be moved, so expiry is not tested here", s)
	}
	return a
}

func testExpiryAfterTTL(t *testing.T, s fleet.TaskStore) {
	clock := advancer(t, s)
	task := newTask(s)
	task.TTL = 10 * time.Second
	create(t, s, task)
	clock.Advance(task.TTL - time.Millisecond)
	get(t, s, task.ID)
	clock.Advance(time.Millisecond)
	_, err := s.Get(ctx, task.ID, alice)
	is(t, "Get at the TTL", err, fleet.ErrTaskNotFound)
	_, err = s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
	is(t, "Update at the TTL", err, fleet.ErrTaskNotFound)
	is(t, "Answer at the TTL", s.Answer(ctx, task.ID, alice, questions()), fleet.ErrTaskNotFound)
	is(t, "Cancel at the TTL", s.Cancel(ctx, task.ID, alice, cancel), fleet.ErrTaskNotFound)
	_, err = s.Abandon(ctx, task.ID, task.Owner, gone, stopped)
	is(t, "Abandon at the TTL", err, fleet.ErrTaskNotFound)

	// An expired id is free again.
	again := create(t, s, task)
	same(t, "a task created again under an expired id", get(t, s, task.ID), again)
}

// A task that ends near its TTL stays readable TaskRetention, and its TTL
// says so; whichever way it ends.
func testTerminalRetained(t *testing.T, s fleet.TaskStore) {
	clock := advancer(t, s)
	ends := map[string]func(fleet.Task) error{
		"completed": func(k fleet.Task) error {
			_, err := s.Update(ctx, k.ID, k.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
			return err
		},
		"cancelled": func(k fleet.Task) error { return s.Cancel(ctx, k.ID, alice, cancel) },
		"abandoned": func(k fleet.Task) error {
			_, err := s.Abandon(ctx, k.ID, k.Owner, gone, stopped)
			return err
		},
	}
	for name, end := range ends {
		task := newTask(s)
		task.TTL = 10 * time.Second
		task = create(t, s, task)
		clock.Advance(9 * time.Second)
		if err := end(task); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := get(t, s, task.ID)
		if want := 9*time.Second + fleet.TaskRetention; got.TTL < want {
			t.Errorf("%s 9s into a 10s TTL: TTL %s, want at least %s", name, got.TTL, want)
		}
		clock.Advance(fleet.TaskRetention - time.Millisecond)
		get(t, s, task.ID)
		clock.Advance(got.Expires().Sub(got.Created) - 9*time.Second - fleet.TaskRetention + time.Millisecond)
		_, err := s.Get(ctx, task.ID, alice)
		is(t, name+" past its grown TTL", err, fleet.ErrTaskNotFound)
	}

	// A long TTL is not shortened.
	task := newTask(s)
	task = create(t, s, task)
	got, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
	if err != nil || got.TTL != task.TTL {
		t.Errorf("a task of a 1h TTL ending at once: TTL %s, %v; want 1h", got.TTL, err)
	}
}

func testUpdatedFollowsClock(t *testing.T, s fleet.TaskStore) {
	clock := advancer(t, s)
	task := inputRequired(t, s)
	clock.Advance(time.Second)
	msg := "1 of 2"
	got, err := s.Update(ctx, task.ID, task.Owner, fleet.TaskChange{Message: &msg})
	if err != nil {
		t.Fatal(err)
	}
	if want := task.Created.Add(time.Second); !got.Updated.Equal(want) || !got.Created.Equal(task.Created) {
		t.Errorf("Update a second later: created %v updated %v, want %v and %v", got.Created, got.Updated, task.Created, want)
	}
	clock.Advance(time.Second)
	if err := s.Answer(ctx, task.ID, alice, map[string]json.RawMessage{"a": json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, task.ID); !got.Updated.Equal(task.Created.Add(2 * time.Second)) {
		t.Errorf("Answer two seconds in: updated %v, want %v", got.Updated, task.Created.Add(2*time.Second))
	}
	clock.Advance(time.Second)
	if err := s.Answer(ctx, task.ID, alice, map[string]json.RawMessage{"zzz": json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, task.ID); !got.Updated.Equal(task.Created.Add(2 * time.Second)) {
		t.Errorf("an answer to no question changed updated to %v", got.Updated)
	}
}
