package mcpcore

// The owner's shadow of its tasks: the replica running a task keeps, in
// memory, the task as it last knows it, so that while the task store is
// away it still answers tasks/get, tasks/update and tasks/cancel for it,
// and its own writes (statusMessage, questions, the outcome) are kept,
// the latest per task, and made when the store answers again. A record the
// store lost (a Redis restarted without persistence) is re-created from
// the shadow, "set if absent". A shadow lives while its task runs, and
// after only while its final write waits.

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// A taskShadow is the owner's copy of one of its tasks.
type taskShadow struct {
	// write orders the changes of the shadow that go to the store (the
	// owner's writes, the flush, a cancel or answers taken here), so that
	// a change made here while a write is on its way is never lost.
	write sync.Mutex
	mu    sync.Mutex // guards the fields below, for readers too
	rec   fleet.Task // the task as its owner knows it, without answers
	// pending is the owner's changes the store has not taken yet, merged:
	// the latest wins, field by field.
	pending *fleet.TaskChange
	// answers are answers given here while the store was away, not yet
	// taken by the runner or given to the store.
	answers map[string]json.RawMessage
}

func newTaskShadow(rec fleet.Task) *taskShadow {
	rec.Answers = nil
	return &taskShadow{rec: rec}
}

// id is the shadow's task id.
func (sh *taskShadow) id() string {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.rec.ID
}

// waiting reports whether changes made here wait for the store.
func (sh *taskShadow) waiting() bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.pending != nil || len(sh.answers) > 0
}

// storeRefused reports whether err is the store's answer about the task,
// rather than the store not answering.
func storeRefused(err error) bool {
	for _, known := range []error{fleet.ErrTaskNotFound, fleet.ErrTaskEnded, fleet.ErrTaskNotOwner, fleet.ErrTaskExists, fleet.ErrTaskStoreFull} {
		if errchain.Is(err, known) {
			return true
		}
	}
	return false
}

// shadowServes reports whether the store's answer err to a tasks/* request
// leaves the owner's shadow to answer: the store did not answer, or did not
// find the task (it lost it; the owner re-creates it).
func shadowServes(err error) bool {
	return err != nil && (!storeRefused(err) || errchain.Is(err, fleet.ErrTaskNotFound))
}

// ownerUpdate is how the owner changes its task id: through the task's
// shadow, when it has one, so that a change the store does not take is
// kept for later and the shadow says it meanwhile; it then returns the
// shadow's record and no error.
func (s *Server) ownerUpdate(ctx context.Context, id string, c fleet.TaskChange) (fleet.Task, error) {
	sh := s.taskRunner.shadow(id)
	if sh == nil {
		return s.taskStore.Update(ctx, id, s.taskStore.Self(), c)
	}
	return sh.update(ctx, s.taskStore, c)
}

func (sh *taskShadow) update(ctx context.Context, store fleet.TaskStore, c fleet.TaskChange) (fleet.Task, error) {
	sh.write.Lock()
	defer sh.write.Unlock()
	sh.mu.Lock()
	if sh.rec.Status.Terminal() {
		// It ended here (cancelled while the store was away): final.
		rec := sh.rec
		sh.mu.Unlock()
		return rec, fleet.ErrTaskEnded
	}
	next := merged(sh.pending, c)
	sh.mu.Unlock()
	t, err := sh.send(ctx, store, next)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	switch {
	case err == nil:
		sh.pending = nil
		sh.rec = t
		sh.rec.Answers = nil
		return t, nil
	case errchain.Is(err, fleet.ErrTaskEnded) || errchain.Is(err, fleet.ErrTaskNotOwner) || errchain.Is(err, fleet.ErrTaskNotFound):
		sh.pending = nil
		if t.ID != "" {
			sh.rec = t
		}
		return t, err
	case storeRefused(err):
		return t, err // too large: refused, and what waited still waits
	}
	next.TakeAnswers = false // answers are taken from the store, when it answers
	sh.pending = &next
	sh.rec = applied(sh.rec, c, time.Now())
	return sh.rec, nil
}

// send makes the change c in the store, re-creating the task from the
// shadow when the store lost it.
func (sh *taskShadow) send(ctx context.Context, store fleet.TaskStore, c fleet.TaskChange) (fleet.Task, error) {
	sh.mu.Lock()
	rec := sh.rec
	sh.mu.Unlock()
	t, err := store.Update(ctx, rec.ID, rec.Owner, c)
	if !errchain.Is(err, fleet.ErrTaskNotFound) {
		return t, err
	}
	lost := applied(rec, c, time.Now())
	remaining := time.Until(lost.Expires())
	if remaining <= 0 {
		return t, err // expired: gone for good
	}
	lost.TTL = remaining
	created, cerr := store.Create(ctx, lost)
	if errchain.Is(cerr, fleet.ErrTaskExists) {
		return store.Update(ctx, rec.ID, rec.Owner, c)
	}
	return created, cerr
}

// flush makes the shadow's waiting changes in the store: the owner's
// writes, re-creating a record the store lost, and answers given here to
// some of the questions. It returns the status of a task the store says
// ended without its owner (cancelled, or abandoned), else "", and whether
// nothing waits any more.
func (sh *taskShadow) flush(ctx context.Context, store fleet.TaskStore) (ended fleet.TaskStatus, done bool) {
	sh.write.Lock()
	defer sh.write.Unlock()
	sh.mu.Lock()
	pending, answers, rec := sh.pending, sh.answers, sh.rec
	sh.mu.Unlock()
	if !time.Now().Before(rec.Expires()) {
		return "", true // its TTL passed: nobody reads it any more
	}
	if pending != nil {
		t, err := sh.send(ctx, store, *pending)
		switch {
		case err == nil:
		case errchain.Is(err, fleet.ErrTaskEnded) || errchain.Is(err, fleet.ErrTaskNotOwner):
			if t.ID != "" && !rec.Status.Terminal() {
				ended = t.Status
			}
		case !storeRefused(err):
			return "", false // the store is still away
		}
		sh.mu.Lock()
		sh.pending = nil
		if t.ID != "" {
			sh.rec, sh.rec.Answers = t, nil
		}
		sh.mu.Unlock()
	}
	if len(answers) > 0 {
		err := store.Answer(ctx, rec.ID, rec.Principal, answers)
		if err != nil && !storeRefused(err) {
			return ended, false
		}
		sh.mu.Lock()
		sh.answers = nil
		sh.mu.Unlock()
	}
	return ended, true
}

// restore re-creates, set if absent, the record of a running task that
// the store no longer finds (a Redis restarted without persistence).
func (sh *taskShadow) restore(ctx context.Context, store fleet.TaskStore) {
	sh.write.Lock()
	defer sh.write.Unlock()
	sh.mu.Lock()
	rec := sh.rec
	sh.mu.Unlock()
	remaining := time.Until(rec.Expires())
	if remaining <= 0 {
		return
	}
	rec.TTL = remaining
	if t, err := store.Create(ctx, rec); err == nil {
		sh.mu.Lock()
		sh.rec = t
		sh.mu.Unlock()
	}
}

// view is what tasks/get answers the owner of task id for principal, given
// the store's answer t, err: the shadow when the store failed or lost the
// task, or lags changes made here; else the store's record.
func (s *Server) ownerView(id, principal string, t fleet.Task, err error) (fleet.Task, bool) {
	sh := s.taskRunner.shadow(id)
	if sh == nil {
		return t, false
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.rec.Principal != principal {
		return t, false
	}
	if err != nil || (!t.Status.Terminal() && (sh.pending != nil || len(sh.answers) > 0)) {
		return sh.rec, true
	}
	return t, false
}

// ownShadow returns the shadow of task id locked for a change, when the
// task runs here for principal (else nil); unlock releases it.
func (s *Server) ownShadow(id, principal string) (sh *taskShadow, unlock func()) {
	sh = s.taskRunner.shadow(id)
	if sh == nil {
		return nil, nil
	}
	sh.write.Lock()
	sh.mu.Lock()
	unlock = func() {
		sh.mu.Unlock()
		sh.write.Unlock()
	}
	if sh.rec.Principal != principal {
		unlock()
		return nil, nil
	}
	return sh, unlock
}

// cancelHere ends the task cancelled in its shadow, when the store did
// not answer a tasks/cancel: final at once for tasks/get here, written
// when the store answers. It reports whether the task runs here for
// principal.
func (s *Server) cancelHere(id, principal, msg string) bool {
	sh, unlock := s.ownShadow(id, principal)
	if sh == nil {
		return false
	}
	defer unlock()
	if !sh.rec.Status.Terminal() {
		c := fleet.TaskChange{Status: fleet.TaskCancelled, Message: &msg}
		next := merged(sh.pending, c)
		sh.pending = &next
		sh.rec = applied(sh.rec, c, time.Now())
	}
	return true
}

// answerHere gives answers to the shadow's outstanding questions, when the
// store did not answer a tasks/update; as the store's Answer does, keys
// not outstanding are ignored and a task with no question left is working.
// It reports whether the task runs here for principal.
func (s *Server) answerHere(id, principal string, answers map[string]json.RawMessage) bool {
	sh, unlock := s.ownShadow(id, principal)
	if sh == nil {
		return false
	}
	defer unlock()
	if sh.rec.Status != fleet.TaskInputRequired {
		return true
	}
	questions := make(map[string]json.RawMessage, len(sh.rec.Questions))
	for k, q := range sh.rec.Questions {
		a, ok := answers[k]
		if !ok {
			questions[k] = q
			continue
		}
		if sh.answers == nil {
			sh.answers = map[string]json.RawMessage{}
		}
		sh.answers[k] = a
	}
	sh.rec.Questions = questions
	if len(questions) == 0 {
		sh.rec.Status, sh.rec.Questions = fleet.TaskWorking, nil
	}
	sh.rec.Updated = time.Now().UTC()
	return true
}

// takeHere takes the answers given here to all of the task's questions,
// or returns nil.
func (sh *taskShadow) takeHere() map[string]json.RawMessage {
	sh.write.Lock()
	defer sh.write.Unlock()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.rec.Status != fleet.TaskWorking || len(sh.answers) == 0 {
		return nil
	}
	a := sh.answers
	sh.answers = nil
	return a
}

// merged is the change c made after the changes pending: the latest wins,
// field by field, a status bringing its questions and outcome.
func merged(pending *fleet.TaskChange, c fleet.TaskChange) fleet.TaskChange {
	if pending == nil {
		return c
	}
	m := *pending
	if c.Status != "" {
		m.Status, m.Questions, m.Outcome = c.Status, c.Questions, c.Outcome
	}
	if c.Message != nil {
		m.Message = c.Message
	}
	m.TakeAnswers = c.TakeAnswers
	return m
}

// applied is rec after the change c at now, as a store would make it.
func applied(rec fleet.Task, c fleet.TaskChange, now time.Time) fleet.Task {
	if c.Status != "" {
		rec.Status, rec.Questions, rec.Outcome = c.Status, c.Questions, c.Outcome
		if c.Status != fleet.TaskInputRequired {
			rec.Questions = nil
		}
	}
	if c.Message != nil {
		rec.Message = *c.Message
	}
	rec.Answers = nil
	rec.Updated = now.UTC()
	if keep := now.Add(fleet.TaskRetention); rec.Status.Terminal() && rec.Expires().Before(keep) {
		rec.TTL = keep.Sub(rec.Created)
	}
	return rec
}
