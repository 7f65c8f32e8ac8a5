package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"
)

// The bounds of a [LocalTasks] when its options leave them zero.
const (
	DefaultMaxTaskRecords = 10_000
	DefaultMaxTaskBytes   = 256 << 20
)

// LocalTasksOptions configure a [LocalTasks]. The zero value is the
// default.
type LocalTasksOptions struct {
	// MaxRecords bounds the tasks kept, ended ones included, so that
	// memory has a ceiling whatever the callers do: 0 is
	// DefaultMaxTaskRecords, negative is no bound.
	MaxRecords int
	// MaxBytes bounds the bytes of the records (outcomes, questions,
	// answers, messages and ids): 0 is DefaultMaxTaskBytes, negative is
	// no bound.
	MaxBytes int64
	// Self is the replica id [LocalTasks.Self] returns; "" is "local".
	Self string
	// Now is the store's clock, which sets a task's times and decides its
	// expiry; nil is time.Now. Tests give their own, to reach a TTL
	// without waiting for it.
	Now func() time.Time
}

// LocalTasks is the [TaskStore] of one process: the default, for stdio and
// a server without a fleet. Its records live in a map under a mutex; an
// expired one is dropped when read and by a sweep at most once a minute,
// as [Local] does, so memory follows the live tasks. It is bounded
// (LocalTasksOptions): when full, Create and any change that would grow the
// records fail with [ErrTaskStoreFull] and nothing stored is evicted early,
// since a task's client relies on reading it until its TTL. Its zero value
// is ready to use, with the default options.
type LocalTasks struct {
	opts LocalTasksOptions

	mu        sync.Mutex
	tasks     map[string]*localTask
	bytes     int64 // the sum of size() over tasks
	lastSweep time.Time
	// seq numbers the tasks created, and byPrincipal lists each
	// principal's in that order (see List).
	seq         uint64
	byPrincipal map[string]*principalIndex
}

// localTask is one record, with the byte counts of its maps kept as they
// change, so that accounting for a change costs what the change gives.
type localTask struct {
	t              Task
	qBytes, aBytes int64
	seq            uint64 // its place in its principal's index
}

// size is what r counts against MaxBytes.
func (r *localTask) size() int64 {
	t := &r.t
	return int64(len(t.ID)+len(t.Tool)+len(t.Principal)+len(t.Owner)+len(t.Message)+len(t.Outcome)) + r.qBytes + r.aBytes
}

// NewLocalTasks returns an empty LocalTasks.
func NewLocalTasks(o LocalTasksOptions) *LocalTasks { return &LocalTasks{opts: o} }

// Self is the id of this process's replica, LocalTasksOptions.Self.
func (s *LocalTasks) Self() string {
	if s.opts.Self == "" {
		return "local"
	}
	return s.opts.Self
}

// Create stores t unless a live task has its id; see [TaskStore].
func (s *LocalTasks) Create(_ context.Context, t Task) (Task, error) {
	if err := t.Check(); err != nil {
		return Task{}, err
	}
	now := s.now()
	r := &localTask{t: t}
	r.t.Questions, r.qBytes = cloneAnswers(t.Questions)
	r.t.Answers = nil
	r.t.Outcome = cloneRaw(t.Outcome)
	r.t.OwnerGone = false
	if r.t.Owner == "" {
		r.t.Owner = s.Self()
	}
	r.t.Created, r.t.Updated = now, now
	if r.t.Status.Terminal() {
		retain(&r.t, now)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now, time.Minute)
	if s.lookup(t.ID, now) != nil {
		return Task{}, ErrTaskExists
	}
	if !s.fits(1, r.size()) {
		// Before refusing, drop what has expired since the last sweep,
		// at most once a second so that a full store costs a failing
		// Create no more than a map lookup.
		s.sweep(now, time.Second)
		if !s.fits(1, r.size()) {
			return Task{}, ErrTaskStoreFull
		}
	}
	if s.tasks == nil {
		s.tasks = map[string]*localTask{}
	}
	s.tasks[t.ID] = r
	s.bytes += r.size()
	s.index(r)
	return r.copy(), nil
}

// Get returns the task id if principal may see it; see [TaskStore].
func (s *LocalTasks) Get(_ context.Context, id, principal string) (Task, error) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now, time.Minute)
	r := s.lookup(id, now)
	if r == nil || r.t.Principal != principal {
		return Task{}, ErrTaskNotFound
	}
	return r.copy(), nil
}

// Update applies c to the task id for its owner; see [TaskStore].
func (s *LocalTasks) Update(_ context.Context, id, owner string, c TaskChange) (Task, error) {
	if err := c.Check(id); err != nil {
		return Task{}, err
	}
	// What the change brings is copied before the lock is taken.
	var questions map[string]json.RawMessage
	var qBytes int64
	if c.Status == TaskInputRequired {
		questions, qBytes = cloneAnswers(c.Questions)
	}
	outcome := cloneRaw(c.Outcome)
	now := s.now()

	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.owned(id, owner, now)
	if err != nil {
		return Task{}, err
	}
	if r.t.Status.Terminal() {
		return r.copy(), ErrTaskEnded
	}
	next := *r
	if c.Status != "" {
		next.t.Status = c.Status
		next.t.Questions, next.qBytes = questions, qBytes
		next.t.Outcome = outcome
	}
	if c.Message != nil {
		next.t.Message = *c.Message
	}
	var taken map[string]json.RawMessage
	if c.TakeAnswers || next.t.Status.Terminal() {
		if c.TakeAnswers {
			taken = next.t.Answers // no longer the record's: handed over whole
		}
		next.t.Answers, next.aBytes = nil, 0
	}
	if !s.fits(0, next.size()-r.size()) {
		return Task{}, ErrTaskStoreFull
	}
	next.t.Updated = now
	if next.t.Status.Terminal() {
		retain(&next.t, now)
	}
	s.replace(r, next)
	out := r.copy()
	if c.TakeAnswers {
		out.Answers = taken
	}
	return out, nil
}

// Answer gives answers to the task id's outstanding questions; see
// [TaskStore].
func (s *LocalTasks) Answer(_ context.Context, id, principal string, answers map[string]json.RawMessage) error {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now, time.Minute)
	r := s.lookup(id, now)
	if r == nil || r.t.Principal != principal {
		return ErrTaskNotFound
	}
	if r.t.Status.Terminal() {
		return ErrTaskEnded
	}
	// One pass to weigh the change, so that a refused one changes
	// nothing; one to make it. Each key is one lookup.
	var grow int64
	moved := 0
	for k, a := range answers {
		if q, ok := r.t.Questions[k]; ok {
			grow += int64(len(a) - len(q))
			moved++
		}
	}
	if moved == 0 {
		return nil
	}
	if !s.fits(0, grow) {
		return ErrTaskStoreFull
	}
	if r.t.Answers == nil {
		r.t.Answers = make(map[string]json.RawMessage, moved)
	}
	for k, a := range answers {
		q, ok := r.t.Questions[k]
		if !ok {
			continue
		}
		delete(r.t.Questions, k)
		r.t.Answers[k] = cloneRaw(a)
		r.qBytes -= int64(len(k) + len(q))
		r.aBytes += int64(len(k) + len(a))
	}
	s.bytes += grow
	if len(r.t.Questions) == 0 {
		r.t.Questions = nil
		if r.t.Status == TaskInputRequired {
			r.t.Status = TaskWorking
		}
	}
	r.t.Updated = now
	return nil
}

// Cancel ends the task id as cancelled; see [TaskStore].
func (s *LocalTasks) Cancel(_ context.Context, id, principal, msg string) error {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now, time.Minute)
	r := s.lookup(id, now)
	if r == nil || r.t.Principal != principal {
		return ErrTaskNotFound
	}
	if r.t.Status.Terminal() {
		return ErrTaskEnded
	}
	s.end(r, now, TaskCancelled, msg, nil)
	return nil
}

// Abandon ends the task id as failed for a replica whose owner is gone; see
// [TaskStore].
func (s *LocalTasks) Abandon(_ context.Context, id, owner string, outcome json.RawMessage, msg string) (Task, error) {
	if err := checkShape(id, TaskFailed, nil, outcome); err != nil {
		return Task{}, err
	}
	outcome = cloneRaw(outcome)
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.owned(id, owner, now)
	if err != nil {
		return Task{}, err
	}
	if r.t.Status.Terminal() {
		return r.copy(), ErrTaskEnded
	}
	s.end(r, now, TaskFailed, msg, outcome)
	return r.copy(), nil
}

// Watch delivers nothing: in one process no other replica answers or
// cancels, and the caller that did so holds the task already.
func (s *LocalTasks) Watch(func(id string)) (stop func()) { return func() {} }

// end makes r terminal. It is not weighed against MaxBytes: a cancel or an
// abandon must win over a full store, and what it adds is a message and a
// small error.
func (s *LocalTasks) end(r *localTask, now time.Time, status TaskStatus, msg string, outcome json.RawMessage) {
	next := *r
	next.t.Status, next.t.Message, next.t.Outcome = status, msg, outcome
	next.t.Questions, next.qBytes = nil, 0
	next.t.Answers, next.aBytes = nil, 0
	next.t.Updated = now
	retain(&next.t, now)
	s.replace(r, next)
}

// replace sets *r to next, keeping the byte count.
func (s *LocalTasks) replace(r *localTask, next localTask) {
	s.bytes += next.size() - r.size()
	*r = next
}

// fits reports whether records more records and grow more bytes stay
// within the bounds. A change that does not grow always fits.
func (s *LocalTasks) fits(records int, grow int64) bool {
	maxRecords := s.opts.MaxRecords
	if maxRecords == 0 {
		maxRecords = DefaultMaxTaskRecords
	}
	maxBytes := s.opts.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxTaskBytes
	}
	if records > 0 && maxRecords > 0 && len(s.tasks)+records > maxRecords {
		return false
	}
	return grow <= 0 || maxBytes < 0 || s.bytes+grow <= maxBytes
}

// owned returns the live record id for a change by replica owner, after a
// sweep that is due: ErrTaskNotFound without one, ErrTaskNotOwner when
// another replica runs it. s.mu is held.
func (s *LocalTasks) owned(id, owner string, now time.Time) (*localTask, error) {
	s.sweep(now, time.Minute)
	r := s.lookup(id, now)
	switch {
	case r == nil:
		return nil, ErrTaskNotFound
	case r.t.Owner != owner:
		return nil, ErrTaskNotOwner
	}
	return r, nil
}

// lookup returns the live record id, or nil, dropping it if it expired.
func (s *LocalTasks) lookup(id string, now time.Time) *localTask {
	r := s.tasks[id]
	if r != nil && !now.Before(r.t.Expires()) {
		s.remove(id, r)
		return nil
	}
	return r
}

// sweep drops the expired records when the last sweep is every or more
// ago.
func (s *LocalTasks) sweep(now time.Time, every time.Duration) {
	if now.Sub(s.lastSweep) < every {
		return
	}
	s.lastSweep = now
	for id, r := range s.tasks {
		if !now.Before(r.t.Expires()) {
			s.remove(id, r)
		}
	}
}

func (s *LocalTasks) remove(id string, r *localTask) {
	delete(s.tasks, id)
	s.bytes -= r.size()
	s.unindex(r)
}

func (s *LocalTasks) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// copy returns r's task, sharing nothing with it.
func (r *localTask) copy() Task {
	t := r.t
	t.Questions, _ = cloneAnswers(t.Questions)
	t.Answers, _ = cloneAnswers(t.Answers)
	t.Outcome = cloneRaw(t.Outcome)
	return t
}

// retain grows t's TTL so that it stays readable TaskRetention after now,
// rounded up to a millisecond so that ttlMs never says less than is kept.
func retain(t *Task, now time.Time) {
	need := now.Add(TaskRetention).Sub(t.Created)
	if rem := need % time.Millisecond; rem != 0 {
		need += time.Millisecond - rem
	}
	if need > t.TTL {
		t.TTL = need
	}
}

// cloneAnswers copies m, values included, and counts its bytes (keys and
// values); an empty m gives nil, as a store that keeps no empty maps would.
func cloneAnswers(m map[string]json.RawMessage) (map[string]json.RawMessage, int64) {
	if len(m) == 0 {
		return nil, 0
	}
	out := make(map[string]json.RawMessage, len(m))
	var n int64
	for k, v := range m {
		out[k] = cloneRaw(v)
		n += int64(len(k) + len(v))
	}
	return out, n
}

func cloneRaw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return bytes.Clone(b)
}

// LocalTasks is a TaskStore.
var _ TaskStore = (*LocalTasks)(nil)
