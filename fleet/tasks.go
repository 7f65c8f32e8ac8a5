package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// A TaskStatus is where a task stands: the five statuses of the MCP
// extension io.modelcontextprotocol/tasks, spelt as on the wire so that a
// store holds what a client reads.
type TaskStatus string

// The statuses of a task. The last three are terminal: a store never
// changes a task once it has one, so that a cancel and a late result cannot
// both win.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports whether s is final: completed, failed or cancelled.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// Valid reports whether s is one of the five statuses.
func (s TaskStatus) Valid() bool {
	return s == TaskWorking || s == TaskInputRequired || s.Terminal()
}

// TaskRetention is how long every store keeps a task readable after it
// ended, at least: when a task turns terminal sooner than that before its
// expiry, the store grows its TTL to now+TaskRetention (the extension lets
// ttlMs change), so that a client polling at its interval reads the result
// however short the TTL. It is one constant rather than a parameter so that
// every replica, and every way a task ends (its owner, a cancel, an
// abandon), keeps it alike.
const TaskRetention = time.Minute

// A Task is the record a [TaskStore] keeps of one tool call that outlived
// its request: what any replica needs to answer tasks/get, tasks/update and
// tasks/cancel for it, and what its owner needs to run it on.
type Task struct {
	// ID is the task's id, unguessable: with authentication off it is all
	// that grants access.
	ID string
	// Tool is the name of the tool called.
	Tool string
	// Principal is who created the task (a digest of the caller's token
	// issuer and subject, "" without authentication). Only the same
	// principal can read, answer or cancel it; to any other the task does
	// not exist.
	Principal string
	// Owner is the replica running the handler ([TaskStore.Self] of its
	// store); only it may [TaskStore.Update] the task.
	Owner string
	// Status is where the task stands.
	Status TaskStatus
	// Message is the task's statusMessage ("" for none).
	Message string
	// Created and Updated are when the task was created and last changed,
	// by the store's clock, which also decides its expiry.
	Created, Updated time.Time
	// TTL is how long after Created the record is kept; it only grows,
	// by [TaskRetention] when the task ends.
	TTL time.Duration
	// PollInterval is the interval a client is advised to poll at.
	PollInterval time.Duration
	// Questions are the outstanding inputRequests of an input_required
	// task, by key; empty in any other status.
	Questions map[string]json.RawMessage
	// Answers are the answers a client gave that the owner has not taken
	// yet, by key (see [TaskChange.TakeAnswers]).
	Answers map[string]json.RawMessage
	// Outcome is, for a completed task, the JSON of its CallToolResult,
	// and for a failed one the JSON-RPC error object; empty otherwise.
	Outcome json.RawMessage
	// OwnerGone is set by [TaskStore.Get] when the task is not terminal
	// and its owner's presence in the fleet has passed: the caller should
	// [TaskStore.Abandon] it. It is never stored.
	OwnerGone bool
}

// Expires is when the record goes: Created plus TTL.
func (t Task) Expires() time.Time { return t.Created.Add(t.TTL) }

// Check says what makes t unfit for [TaskStore.Create], or nil. A store
// calls it so that no record holds a state the wire cannot render: questions
// only while input_required, an outcome exactly when completed or failed.
func (t Task) Check() error {
	if t.ID == "" {
		return errors.New("a task needs an id")
	}
	if t.TTL <= 0 {
		return fmt.Errorf("task %s: a TTL must be positive, not %s", t.ID, t.TTL)
	}
	if t.PollInterval < 0 {
		return fmt.Errorf("task %s: a poll interval cannot be negative (%s)", t.ID, t.PollInterval)
	}
	if len(t.Answers) > 0 {
		return fmt.Errorf("task %s: answers come only through Answer, not Create", t.ID)
	}
	return checkShape(t.ID, t.Status, t.Questions, t.Outcome)
}

// A TaskChange is what the owner of a task changes in one
// [TaskStore.Update]. Its zero value changes nothing but Updated.
type TaskChange struct {
	// Status is the new status; "" keeps the current one (and its
	// questions).
	Status TaskStatus
	// Message, when not nil, is the new statusMessage.
	Message *string
	// Questions are the outstanding questions of a change to
	// input_required, which needs at least one; they replace any before.
	// A change to any other status drops the outstanding questions.
	Questions map[string]json.RawMessage
	// TakeAnswers moves the answers given so far out of the record, into
	// the Task that Update returns, in the same step: an answer is taken
	// once, and one given meanwhile is not lost.
	TakeAnswers bool
	// Outcome is the outcome of a change to completed or failed, which
	// needs one; see [Task.Outcome].
	Outcome json.RawMessage
}

// Check says what makes c unfit for [TaskStore.Update], or nil.
func (c TaskChange) Check(id string) error {
	if c.Status == "" {
		if len(c.Questions) > 0 || len(c.Outcome) > 0 {
			return fmt.Errorf("task %s: questions and an outcome come with the status they belong to", id)
		}
		return nil
	}
	return checkShape(id, c.Status, c.Questions, c.Outcome)
}

// checkShape is the rule Task.Check and TaskChange.Check share.
func checkShape(id string, s TaskStatus, questions map[string]json.RawMessage, outcome json.RawMessage) error {
	if !s.Valid() {
		return fmt.Errorf("task %s: unknown status %q", id, s)
	}
	if (s == TaskInputRequired) != (len(questions) > 0) {
		return fmt.Errorf("task %s: a task has questions exactly when it is input_required (status %s, %d questions)", id, s, len(questions))
	}
	if (s == TaskCompleted || s == TaskFailed) != (len(outcome) > 0) {
		return fmt.Errorf("task %s: a task has an outcome exactly when it is completed or failed (status %s)", id, s)
	}
	return nil
}

// The errors a [TaskStore] returns, to be told apart with errors.Is.
var (
	// ErrTaskNotFound: no task with this id is visible to this caller. It
	// is the answer for an unknown id, an expired one and another
	// principal's alike, so that existence does not leak.
	ErrTaskNotFound = errors.New("task not found")
	// ErrTaskEnded: the task is already terminal, so the change was not
	// made; the method returns the record as it stands, so the caller can
	// say how it ended.
	ErrTaskEnded = errors.New("task already ended")
	// ErrTaskNotOwner: the replica named is not the task's owner, so it
	// may not change it.
	ErrTaskNotOwner = errors.New("task owned by another replica")
	// ErrTaskExists: Create found a live task with this id; nothing was
	// overwritten.
	ErrTaskExists = errors.New("task id already in use")
	// ErrTaskStoreFull: the store is at its bound of records or bytes, so
	// the task was not created or the change not made; nothing stored was
	// evicted for it. The caller runs the call synchronously or refuses it
	// as retryable.
	ErrTaskStoreFull = errors.New("task store full")
)

// A TaskStore keeps the tasks of a server where every replica can read them:
// [LocalTasks] in one process, package redis across a fleet.
//
// Each method is one atomic step on one record: a terminal status is never
// overwritten; Update and Abandon check the owner, Get, Answer and Cancel
// the principal, inside the step, and a principal that is not the task's
// gets [ErrTaskNotFound]. An expired task is not found by any method. Maps
// and bytes are copied in and out: what a caller passes or gets never
// aliases the record. A method costs time linear in what it is given and
// returns.
type TaskStore interface {
	// Self is this replica's id, the Owner of the tasks it creates.
	Self() string
	// Create stores t if no live task has its id ([ErrTaskExists]
	// otherwise), with Created and Updated set by the store's clock, an
	// empty Owner set to Self, and a terminal task's TTL grown to cover
	// TaskRetention; it returns what it stored. On return any replica's
	// Get finds the task, so a CreateTaskResult may be sent.
	Create(ctx context.Context, t Task) (Task, error)
	// Get returns the task id if principal may see it.
	Get(ctx context.Context, id, principal string) (Task, error)
	// Update applies c to the task id for its owner: [ErrTaskNotOwner]
	// when owner is not the task's, [ErrTaskEnded] (with the record) when
	// the task is terminal. It returns the record after the change, with
	// the answers taken if c.TakeAnswers.
	Update(ctx context.Context, id, owner string, c TaskChange) (Task, error)
	// Answer gives answers to the task id's outstanding questions: the
	// keys outstanding move from Questions to Answers, any other key is
	// ignored, and an input_required task with no question left becomes
	// working. [ErrTaskEnded] when the task is terminal. The owner hears
	// of it through Watch.
	Answer(ctx context.Context, id, principal string, answers map[string]json.RawMessage) error
	// Cancel ends the task id as cancelled with statusMessage msg, or
	// returns [ErrTaskEnded] and changes nothing when it already ended.
	// It is never refused for lack of room. The owner hears of it through
	// Watch.
	Cancel(ctx context.Context, id, principal, msg string) error
	// Abandon ends the task id as failed with outcome and msg when it is
	// still owner's and not terminal: how a replica ends a task whose
	// owner is gone ([Task.OwnerGone]). [ErrTaskNotOwner] when another
	// replica owns it now, [ErrTaskEnded] (with the record) when it
	// already ended. It is never refused for lack of room.
	Abandon(ctx context.Context, id, owner string, outcome json.RawMessage, msg string) (Task, error)
	// Watch calls deliver, from one goroutine, with the id of each task
	// of this replica that another replica answered or cancelled, until
	// stop is called. A delivery carries no data and may be lost or
	// repeated: the owner re-reads the task, and re-reads its running
	// tasks periodically anyway.
	Watch(deliver func(id string)) (stop func())
}

// A TaskStoreHealth is a [TaskStore] that knows, without a round trip,
// whether its backend answers: a server refuses at once, as retryable, a
// call that can only run as a task while Healthy is false, rather than run
// it to find out, and keeps a call that may run synchronously from waiting
// on the store. A store without it ([LocalTasks]) is taken to be healthy.
type TaskStoreHealth interface {
	// Healthy reports false from a call that found the backend
	// unreachable until the backend answers again (a probe tries it
	// periodically).
	Healthy() bool
}
