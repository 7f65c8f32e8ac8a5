package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/seed417024ea/mcpcore/fleet"
)

// DefaultMaxTaskBytes bounds one task's record when Options.MaxTaskBytes
// is zero: its outcome, questions, answers, message, tool, principal and
// owner together. It is above the server's default bound on a result
// (8 MiB), with room for the questions of a round.
const DefaultMaxTaskBytes = 16 << 20

// taskStore is a Fleet's [fleet.TaskStore]: one hash per task, changed only
// by the scripts of tasks_scripts.go.
type taskStore struct {
	f        *Fleet
	channel  string // mcpcore:<server>:tasks, where Answer, Cancel and Abandon signal the owner
	maxBytes int64
	// away is set while Redis is unreachable: each call fails at once
	// (see run), and a probe clears it.
	away away
}

func newTaskStore(f *Fleet, maxBytes int64) *taskStore {
	if maxBytes == 0 {
		maxBytes = DefaultMaxTaskBytes
	}
	return &taskStore{f: f, channel: f.key("tasks"), maxBytes: maxBytes}
}

// Tasks returns the fleet's task store, where every replica finds the
// tasks any of them runs: one hash per task, mcpcore:<server>:task:{<id>},
// each change one Lua script on that one key (so it is atomic, and safe on
// a Redis Cluster), expiring with the task's TTL by Redis's clock. Every
// call, reads included, is a script that goes to the primary (never a
// read-only replica), so that a Get right after Create finds the task. Each
// call waits on Redis 200 ms at most, so a server whose Redis is away runs a
// call synchronously or refuses it quickly. Answer, Cancel and Abandon
// signal the task's owner on channel mcpcore:<server>:tasks, which Watch
// reads.
//
// A record is bounded by Options.MaxTaskBytes: a change that would make it
// larger fails with [fleet.ErrTaskStoreFull], as does any write while Redis
// is out of memory (maxmemory with the noeviction policy, which a task
// store needs: an evicted task is a task its client can no longer read).
func (f *Fleet) Tasks() fleet.TaskStore { return f.tasks }

// Self is this replica's id in the fleet, the one its presence is kept
// under.
func (s *taskStore) Self() string { return s.f.id }

// key is the hash of task id; the braces make it its own hash slot.
func (s *taskStore) key(id string) string { return s.f.key("task:{" + id + "}") }

// Create stores t unless a live task has its id; see [fleet.TaskStore].
func (s *taskStore) Create(ctx context.Context, t fleet.Task) (fleet.Task, error) {
	if err := t.Check(); err != nil {
		return fleet.Task{}, err
	}
	t.Questions = cloneRaws(t.Questions)
	t.Outcome = cloneRaw(t.Outcome)
	t.Answers, t.OwnerGone = nil, false
	if t.Owner == "" {
		t.Owner = s.Self()
	}
	t.TTL = ceilMilli(t.TTL)
	bq := rawsBytes(t.Questions)
	if size := int64(len(t.Tool)+len(t.Principal)+len(t.Owner)+len(t.Message)+len(t.Outcome)) + bq; size > s.maxBytes {
		return fleet.Task{}, fmt.Errorf("%w: task %s would hold %d bytes, over its bound of %d", fleet.ErrTaskStoreFull, t.ID, size, s.maxBytes)
	}
	owner, _ := json.Marshal(t.Owner) // a string always marshals
	args := make([]any, 0, 24+2*len(t.Questions))
	args = append(args, fleet.TaskRetention.Milliseconds(), string(t.Status), t.TTL.Milliseconds(),
		"t", t.Tool, "p", t.Principal, "o", t.Owner, "oj", owner, "m", t.Message,
		"pi", int64(t.PollInterval), "nq", len(t.Questions), "bq", bq, "ba", 0)
	if len(t.Outcome) > 0 {
		args = append(args, "r", []byte(t.Outcome))
	}
	for k, q := range t.Questions {
		args = append(args, "q:"+k, []byte(q))
	}
	reply, err := s.run(ctx, taskCreate, t.ID, args...)
	if err != nil {
		return fleet.Task{}, err
	}
	switch reply.code {
	case "exists":
		return fleet.Task{}, fleet.ErrTaskExists
	case "ok":
	default:
		return fleet.Task{}, reply.unexpected()
	}
	created, err1 := reply.number(1)
	ttl, err2 := reply.number(2)
	if err := errors.Join(err1, err2); err != nil {
		return fleet.Task{}, err
	}
	t.Created = time.UnixMilli(created).UTC()
	t.Updated = t.Created
	t.TTL = time.Duration(ttl) * time.Millisecond
	if err := s.index(ctx, t); err != nil {
		return fleet.Task{}, err
	}
	return t, nil
}

// Get returns the task id if principal may see it, with OwnerGone set when
// it is another replica's, not ended, and that replica's presence has
// passed; see [fleet.TaskStore].
func (s *taskStore) Get(ctx context.Context, id, principal string) (fleet.Task, error) {
	reply, err := s.run(ctx, taskGet, id, principal)
	if err != nil {
		return fleet.Task{}, err
	}
	if reply.code != "ok" {
		return fleet.Task{}, reply.err()
	}
	t, err := reply.task(id, 1)
	if err != nil {
		return fleet.Task{}, err
	}
	if !t.Status.Terminal() && t.Owner != s.Self() {
		t.OwnerGone = s.f.gone(ctx, t.Owner)
	}
	return t, nil
}

// Update applies c to the task id for its owner; see [fleet.TaskStore].
func (s *taskStore) Update(ctx context.Context, id, owner string, c fleet.TaskChange) (fleet.Task, error) {
	if err := c.Check(id); err != nil {
		return fleet.Task{}, err
	}
	hasMsg, msg := "0", ""
	if c.Message != nil {
		hasMsg, msg = "1", *c.Message
	}
	var questions map[string]json.RawMessage
	if c.Status == fleet.TaskInputRequired {
		questions = c.Questions
	}
	args := make([]any, 0, 10+2*len(questions))
	args = append(args, owner, fleet.TaskRetention.Milliseconds(), s.maxBytes, string(c.Status), hasMsg, msg,
		flag(c.TakeAnswers), []byte(c.Outcome), len(questions), rawsBytes(questions))
	for k, q := range questions {
		args = append(args, "q:"+k, []byte(q))
	}
	reply, err := s.run(ctx, taskUpdate, id, args...)
	if err != nil {
		return fleet.Task{}, err
	}
	switch reply.code {
	case "ok":
		t, err := reply.task(id, 1)
		if err != nil || !c.TakeAnswers {
			return t, err
		}
		taken, err := reply.list(2)
		if err != nil {
			return fleet.Task{}, err
		}
		t.Answers, err = fields(taken, "a:")
		return t, err
	case "ended":
		return reply.ended(id)
	case "full":
		return fleet.Task{}, fmt.Errorf("%w: task %s would grow past its bound of %d bytes", fleet.ErrTaskStoreFull, id, s.maxBytes)
	}
	return fleet.Task{}, reply.err()
}

// Answer gives answers to the task id's outstanding questions; see
// [fleet.TaskStore].
func (s *taskStore) Answer(ctx context.Context, id, principal string, answers map[string]json.RawMessage) error {
	args := make([]any, 0, 4+2*len(answers))
	args = append(args, principal, s.maxBytes, s.channel, s.signal(id))
	for k, a := range answers {
		args = append(args, k, []byte(a))
	}
	reply, err := s.run(ctx, taskAnswer, id, args...)
	if err != nil {
		return err
	}
	switch reply.code {
	case "ok":
		return nil
	case "full":
		return fmt.Errorf("%w: the answers would grow task %s past its bound of %d bytes", fleet.ErrTaskStoreFull, id, s.maxBytes)
	}
	return reply.err()
}

// Cancel ends the task id as cancelled; see [fleet.TaskStore].
func (s *taskStore) Cancel(ctx context.Context, id, principal, msg string) error {
	reply, err := s.run(ctx, taskCancel, id, principal, fleet.TaskRetention.Milliseconds(), msg, s.channel, s.signal(id))
	if err != nil {
		return err
	}
	if reply.code == "ok" {
		return nil
	}
	return reply.err()
}

// Abandon ends the task id as failed when it is still owner's; see
// [fleet.TaskStore].
func (s *taskStore) Abandon(ctx context.Context, id, owner string, outcome json.RawMessage, msg string) (fleet.Task, error) {
	if err := (fleet.TaskChange{Status: fleet.TaskFailed, Outcome: outcome}).Check(id); err != nil {
		return fleet.Task{}, err
	}
	reply, err := s.run(ctx, taskAbandon, id, owner, fleet.TaskRetention.Milliseconds(), msg, []byte(outcome), s.channel, s.signal(id))
	if err != nil {
		return fleet.Task{}, err
	}
	switch reply.code {
	case "ok":
		return reply.task(id, 1)
	case "ended":
		return reply.ended(id)
	}
	return fleet.Task{}, reply.err()
}

// run runs script on the key of task id, within the bound on a call, and
// returns its reply.
func (s *taskStore) run(ctx context.Context, script *goredis.Script, id string, args ...any) (scriptReply, error) {
	if s.away.is() {
		return scriptReply{}, fmt.Errorf("the Redis task store did not answer for task %s: %w", id, errRedisAway)
	}
	cctx, cancel := context.WithTimeout(ctx, s.f.timing.task)
	defer cancel()
	v, err := script.Run(cctx, s.f.client, []string{s.key(id)}, args...).Slice()
	if err != nil {
		if strings.HasPrefix(err.Error(), "OOM ") {
			return scriptReply{}, fmt.Errorf("%w: Redis is out of memory (%v)", fleet.ErrTaskStoreFull, err)
		}
		// A caller that gave up is not Redis's failure; one whose
		// deadline passed waited on Redis as long as it could.
		if ctx.Err() != context.Canceled && unreachable(err) {
			s.goAway(err)
		}
		return scriptReply{}, fmt.Errorf("the Redis task store did not answer for task %s: %w", id, err)
	}
	if len(v) == 0 {
		return scriptReply{}, fmt.Errorf("the Redis task store answered nothing for task %s", id)
	}
	code, _ := v[0].(string)
	return scriptReply{code: code, v: v}, nil
}

// scriptReply is a script's answer: a code, then what the code says.
type scriptReply struct {
	code string
	v    []any
}

// ended is the record of an "ended" answer, with ErrTaskEnded.
func (r scriptReply) ended(id string) (fleet.Task, error) {
	t, err := r.task(id, 1)
	if err != nil {
		return fleet.Task{}, err
	}
	return t, fleet.ErrTaskEnded
}

// err is the error of a code that is one.
func (r scriptReply) err() error {
	switch r.code {
	case "notfound":
		return fleet.ErrTaskNotFound
	case "notowner":
		return fleet.ErrTaskNotOwner
	case "ended":
		return fleet.ErrTaskEnded
	}
	return r.unexpected()
}

func (r scriptReply) unexpected() error {
	return fmt.Errorf("the Redis task store answered %q, which no script of this version does", r.code)
}

// list is the array at i.
func (r scriptReply) list(i int) ([]any, error) {
	if i < len(r.v) {
		if l, ok := r.v[i].([]any); ok {
			return l, nil
		}
	}
	return nil, fmt.Errorf("the Redis task store's %q answer lacks item %d", r.code, i)
}

// int is the integer, written as a string, at i.
func (r scriptReply) number(i int) (int64, error) {
	if i < len(r.v) {
		if s, ok := r.v[i].(string); ok {
			return strconv.ParseInt(s, 10, 64)
		}
	}
	return 0, fmt.Errorf("the Redis task store's %q answer lacks item %d", r.code, i)
}

// task decodes the record at i, the fields of task id as HGETALL lists them.
func (r scriptReply) task(id string, i int) (fleet.Task, error) {
	flat, err := r.list(i)
	if err != nil {
		return fleet.Task{}, err
	}
	t := fleet.Task{ID: id}
	var errs []error
	num := func(v string) int64 {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			errs = append(errs, err)
		}
		return n
	}
	for j := 0; j+1 < len(flat); j += 2 {
		f, _ := flat[j].(string)
		v, _ := flat[j+1].(string)
		switch {
		case f == "t":
			t.Tool = v
		case f == "p":
			t.Principal = v
		case f == "o":
			t.Owner = v
		case f == "s":
			t.Status = fleet.TaskStatus(v)
		case f == "m":
			t.Message = v
		case f == "c":
			t.Created = time.UnixMilli(num(v)).UTC()
		case f == "u":
			t.Updated = time.UnixMilli(num(v)).UTC()
		case f == "ttl":
			t.TTL = time.Duration(num(v)) * time.Millisecond
		case f == "pi":
			t.PollInterval = time.Duration(num(v))
		case f == "r":
			t.Outcome = json.RawMessage(v)
		case strings.HasPrefix(f, "q:"):
			t.Questions = put(t.Questions, f[2:], v)
		case strings.HasPrefix(f, "a:"):
			t.Answers = put(t.Answers, f[2:], v)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fleet.Task{}, fmt.Errorf("the Redis record of task %s is malformed: %w", id, err)
	}
	return t, nil
}

// fields are the pairs of flat whose field starts with prefix, by the rest
// of the field.
func fields(flat []any, prefix string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	for j := 0; j+1 < len(flat); j += 2 {
		f, ok1 := flat[j].(string)
		v, ok2 := flat[j+1].(string)
		if !ok1 || !ok2 {
			return nil, errors.New("the Redis task store answered a field that is not a string")
		}
		if rest, ok := strings.CutPrefix(f, prefix); ok {
			m = put(m, rest, v)
		}
	}
	return m, nil
}

func put(m map[string]json.RawMessage, k, v string) map[string]json.RawMessage {
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	m[k] = json.RawMessage(v)
	return m
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// ceilMilli rounds d up to a millisecond, the unit Redis keeps a TTL in,
// so that a task is never kept less than it asked.
func ceilMilli(d time.Duration) time.Duration {
	if rem := d % time.Millisecond; rem != 0 {
		d += time.Millisecond - rem
	}
	return d
}

// rawsBytes is what m counts against a record's bound: its keys and values.
func rawsBytes(m map[string]json.RawMessage) int64 {
	var n int64
	for k, v := range m {
		n += int64(len(k) + len(v))
	}
	return n
}

func cloneRaws(m map[string]json.RawMessage) map[string]json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = cloneRaw(v)
	}
	return out
}

func cloneRaw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

// taskStore is a TaskStore.
var _ fleet.TaskStore = (*taskStore)(nil)
