package redis

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
	goredis "github.com/redis/go-redis/v9"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/fleet/taskstoretest"
	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// miniClocked is the task store on a miniredis whose clock the suite
// moves: the store reads Redis's TIME and Redis expires its keys, so
// moving miniredis's clock moves both, as time passing would.
type miniClocked struct {
	fleet.TaskStore
	m     *miniredis.Miniredis
	clock *taskstoretest.Clock
}

func (c miniClocked) Advance(d time.Duration) {
	c.clock.Advance(d)
	c.m.SetTime(c.clock.Now())
}

// clockedRedis starts a miniredis whose clock stands still until moved,
// expiring keys as it moves.
func clockedRedis(t testing.TB) (*miniredis.Miniredis, *taskstoretest.Clock) {
	t.Helper()
	m := startRedis(t)
	clock := taskstoretest.NewClock()
	m.SetTime(clock.Now())
	m.ClockTTL(true)
	return m, clock
}

// The store keeps the promises of every TaskStore: on miniredis with its
// clock moved (the tests of time included), and on a real Redis when
// MCPCORE_REDIS_ADDR names one, where the tests of time skip, since its
// clock cannot be moved.
func TestTaskStoreConformance(t *testing.T) {
	t.Run("miniredis", func(t *testing.T) {
		taskstoretest.Run(t, func(t *testing.T) fleet.TaskStore {
			m, clock := clockedRedis(t)
			return miniClocked{newReplica(t, m.Addr()).Tasks(), m, clock}
		})
	})
	t.Run("redis", func(t *testing.T) {
		addr := realRedis(t)
		taskstoretest.Run(t, func(t *testing.T) fleet.TaskStore {
			return newReplicaOf(t, addr, testServer(t), testTiming).Tasks()
		})
	})
}

// realRedis is MCPCORE_REDIS_ADDR, or skips the test.
func realRedis(t testing.TB) string {
	t.Helper()
	addr := os.Getenv("MCPCORE_REDIS_ADDR")
	if addr == "" {
		t.Skip("MCPCORE_REDIS_ADDR names no Redis")
	}
	return addr
}

// testServer is a namespace of its own on a shared Redis, whose keys are
// deleted at the end of the test.
func testServer(t testing.TB) string {
	t.Helper()
	server := "test-" + rand.Text()[:10]
	t.Cleanup(func() {
		c := goredis.NewClient(&goredis.Options{Addr: os.Getenv("MCPCORE_REDIS_ADDR")})
		defer c.Close()
		ctx := context.Background()
		iter := c.Scan(ctx, 0, "mcpcore:"+server+":*", 100).Iterator()
		for iter.Next(ctx) {
			c.Del(ctx, iter.Val())
		}
	})
	return server
}

var bg = context.Background()

// working is a working task of principal "alice" for s to create.
func working(s fleet.TaskStore) fleet.Task {
	return fleet.Task{ID: rand.Text(), Tool: "slow_compute", Principal: "alice", Owner: s.Self(),
		Status: fleet.TaskWorking, TTL: time.Hour, PollInterval: time.Second}
}

var (
	result = json.RawMessage(`{"content":[{"type":"text","text":"computed"}]}`)
	lost   = json.RawMessage(`{"code":-32000,"message":"The replica stopped.","data":{"retryable":true}}`)
)

// The owner's result and a client's cancel race for one task, a thousand
// times, in Redis's scripts: each time exactly one wins, the other gets
// ErrTaskEnded, and the record holds the winner's status.
func TestTaskScriptsTerminalIsFinal(t *testing.T) {
	run := func(t *testing.T, s fleet.TaskStore, rounds int) {
		for round := range rounds {
			task, err := s.Create(bg, working(s))
			if err != nil {
				t.Fatal(err)
			}
			var finishErr, cancelErr error
			var wg sync.WaitGroup
			start := make(chan struct{})
			wg.Go(func() {
				<-start
				_, finishErr = s.Update(bg, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result})
			})
			wg.Go(func() { <-start; cancelErr = s.Cancel(bg, task.ID, "alice", "Cancelled by the client.") })
			close(start)
			wg.Wait()
			got, err := s.Get(bg, task.ID, "alice")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case finishErr == nil && errchain.Is(cancelErr, fleet.ErrTaskEnded):
				if got.Status != fleet.TaskCompleted || string(got.Outcome) != string(result) {
					t.Fatalf("round %d: the result won, but the task is %s with %s", round, got.Status, got.Outcome)
				}
			case cancelErr == nil && errchain.Is(finishErr, fleet.ErrTaskEnded):
				if got.Status != fleet.TaskCancelled || len(got.Outcome) != 0 {
					t.Fatalf("round %d: the cancel won, but the task is %s with %s", round, got.Status, got.Outcome)
				}
			default:
				t.Fatalf("round %d: finish %v, cancel %v: want exactly one to win, the other ErrTaskEnded", round, finishErr, cancelErr)
			}
		}
	}
	t.Run("miniredis", func(t *testing.T) {
		m := startRedis(t)
		run(t, newReplica(t, m.Addr()).Tasks(), 1000)
	})
	t.Run("redis", func(t *testing.T) {
		addr := realRedis(t)
		run(t, newReplicaOf(t, addr, testServer(t), testTiming).Tasks(), 1000)
	})
}

// Every key a task's calls name hashes to the slot of the task's hash tag,
// so that each script runs on one node of a Redis Cluster: the commands
// sent over a whole life (create, questions, answers, progress, result,
// cancel, abandon, reads) are recorded and their keys checked.
func TestTaskKeysShareSlot(t *testing.T) {
	m := startRedis(t)
	r := newReplica(t, m.Addr())
	rec := &keyRecorder{}
	r.client.AddHook(rec)
	s := r.Tasks()

	task := working(s)
	task.Status = fleet.TaskInputRequired
	task.Questions = map[string]json.RawMessage{"a": json.RawMessage(`{"method":"roots/list"}`), "b": json.RawMessage(`{}`)}
	rec.start()
	if _, err := s.Create(bg, task); err != nil {
		t.Fatal(err)
	}
	if err := s.Answer(bg, task.ID, "alice", map[string]json.RawMessage{"a": json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	msg := "1 of 2"
	if _, err := s.Update(bg, task.ID, task.Owner, fleet.TaskChange{Message: &msg, TakeAnswers: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(bg, task.ID, "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(bg, task.ID, task.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result}); err != nil {
		t.Fatal(err)
	}
	other, err := s.Create(bg, working(s))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Cancel(bg, other.ID, "alice", "cancelled"); err != nil {
		t.Fatal(err)
	}
	third, err := s.Create(bg, working(s))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Abandon(bg, third.ID, third.Owner, lost, "lost"); err != nil {
		t.Fatal(err)
	}
	cmds := rec.stop()

	calls := 0
	for _, cmd := range cmds {
		if len(cmd.keys) != 1 {
			t.Errorf("%s names %d keys, want one: %q", cmd.name, len(cmd.keys), cmd.keys)
			continue
		}
		key := cmd.keys[0]
		id := key[strings.Index(key, "{")+1 : strings.Index(key, "}")]
		if !strings.HasPrefix(key, "mcpcore:weather:task:{") || slot(key) != slot("{"+id+"}") {
			t.Errorf("%s on key %q: not in the slot of its task's hash tag", cmd.name, key)
		}
		calls++
	}
	if calls < 9 {
		t.Errorf("recorded %d script calls, want one per store call: %v", calls, cmds)
	}
	for _, k := range m.Keys() {
		if strings.Contains(k, ":task:") && !strings.Contains(k, ":task:{") {
			t.Errorf("key %q of a task lacks its hash tag", k)
		}
	}
}

// keyRecorder records the scripts the client sends and the keys they name.
type keyRecorder struct {
	mu   sync.Mutex
	on   bool
	cmds []scriptCall
}

type scriptCall struct {
	name string
	keys []string
}

func (r *keyRecorder) start() { r.mu.Lock(); r.on = true; r.mu.Unlock() }
func (r *keyRecorder) stop() []scriptCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.cmds
}

func (r *keyRecorder) DialHook(next goredis.DialHook) goredis.DialHook { return next }
func (r *keyRecorder) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return next
}
func (r *keyRecorder) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		args := cmd.Args()
		name := strings.ToLower(cmd.Name())
		if name == "evalsha" || name == "eval" {
			n := int(args[2].(int))
			keys := make([]string, n)
			for i := range n {
				keys[i] = args[3+i].(string)
			}
			r.mu.Lock()
			if r.on {
				r.cmds = append(r.cmds, scriptCall{name, keys})
			}
			r.mu.Unlock()
		}
		return next(ctx, cmd)
	}
}

// slot is the Redis Cluster slot of key: CRC16 (XMODEM) of its hash tag,
// or of the whole key when it has none, modulo 16384.
func slot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % 16384
}

// The slot function is Redis's: the values of the cluster specification.
func TestSlotIsRedisCluster(t *testing.T) {
	for key, want := range map[string]int{"123456789": 12739, "foo": 12182, "{user1000}.following": slot("user1000"), "a{}b": slot("a{}b")} {
		if got := slot(key); got != want {
			t.Errorf("slot(%q) = %d, want %d", key, got, want)
		}
	}
}

// The key's expiry in Redis is the task's: Created+TTL while it runs,
// grown to cover the retention when it ends near its TTL, and kept when
// it ends long before it.
func TestTaskExpiryFollowsTTL(t *testing.T) {
	m, clock := clockedRedis(t)
	s := newReplica(t, m.Addr()).Tasks()
	pttl := func(id string) time.Duration {
		t.Helper()
		return m.TTL("mcpcore:weather:task:{" + id + "}")
	}

	short := working(s)
	short.TTL = 10 * time.Second
	short, err := s.Create(bg, short)
	if err != nil {
		t.Fatal(err)
	}
	if got := pttl(short.ID); got != 10*time.Second {
		t.Errorf("PTTL of a task of a 10s TTL: %s", got)
	}
	m.SetTime(clock.Now().Add(4 * time.Second))
	if got := pttl(short.ID); got != 6*time.Second {
		t.Errorf("PTTL 4s into a 10s TTL: %s, want 6s", got)
	}
	if _, err := s.Update(bg, short.ID, short.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result}); err != nil {
		t.Fatal(err)
	}
	if got := pttl(short.ID); got != fleet.TaskRetention {
		t.Errorf("PTTL of a task ended 4s into a 10s TTL: %s, want the retention, %s", got, fleet.TaskRetention)
	}
	got, err := s.Get(bg, short.ID, "alice")
	if err != nil || got.TTL != 4*time.Second+fleet.TaskRetention {
		t.Errorf("TTL read after the end: %s, %v; want %s", got.TTL, err, 4*time.Second+fleet.TaskRetention)
	}

	long, err := s.Create(bg, working(s))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Cancel(bg, long.ID, "alice", "cancelled"); err != nil {
		t.Fatal(err)
	}
	if got := pttl(long.ID); got != time.Hour {
		t.Errorf("PTTL of a task of a 1h TTL cancelled at once: %s, want 1h", got)
	}

	// A TTL not whole in milliseconds is rounded up, never down.
	odd := working(s)
	odd.TTL = 1500*time.Millisecond + time.Microsecond
	odd, err = s.Create(bg, odd)
	if err != nil || odd.TTL != 1501*time.Millisecond || pttl(odd.ID) != 1501*time.Millisecond {
		t.Errorf("a TTL of 1.500001s: created with %s (%v), PTTL %s; want 1.501s", odd.TTL, err, pttl(odd.ID))
	}
}

// On a real Redis, PTTL follows the TTL by Redis's own clock.
func TestTaskExpiryFollowsTTLOnRedis(t *testing.T) {
	addr := realRedis(t)
	server := testServer(t)
	s := newReplicaOf(t, addr, server, testTiming).Tasks()
	c := goredis.NewClient(&goredis.Options{Addr: addr})
	defer c.Close()
	task := working(s)
	task.TTL = 10 * time.Second
	if _, err := s.Create(bg, task); err != nil {
		t.Fatal(err)
	}
	key := "mcpcore:" + server + ":task:{" + task.ID + "}"
	if got := c.PTTL(bg, key).Val(); got > 10*time.Second || got < 9*time.Second {
		t.Errorf("PTTL of a task of a 10s TTL: %s", got)
	}
	if _, err := s.Abandon(bg, task.ID, task.Owner, lost, "lost"); err != nil {
		t.Fatal(err)
	}
	if got := c.PTTL(bg, key).Val(); got > fleet.TaskRetention || got < fleet.TaskRetention-time.Second {
		t.Errorf("PTTL of a task abandoned at once of a 10s TTL: %s, want about %s", got, fleet.TaskRetention)
	}
}

// A replica reads another's running task with OwnerGone once that
// replica's heartbeat stopped and its presence passed; never its own, nor
// an ended one; and the task can then be abandoned.
func TestOwnerGoneSetsFlag(t *testing.T) {
	m := startRedis(t)
	reader := newReplica(t, m.Addr())
	// The owner heartbeats once, as it starts, and never again: a replica
	// that died.
	dying := testTiming
	dying.heartbeat, dying.presenceTTL = time.Hour, 300*time.Millisecond
	owner := newReplicaOf(t, m.Addr(), "weather", dying)

	task, err := owner.Tasks().Create(bg, working(owner.Tasks()))
	if err != nil {
		t.Fatal(err)
	}
	ended, err := owner.Tasks().Create(bg, working(owner.Tasks()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Tasks().Update(bg, ended.ID, ended.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: result}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "see both replicas", func() bool { return reader.replicaCount() == 2 })
	if got, err := reader.Tasks().Get(bg, task.ID, "alice"); err != nil || got.OwnerGone {
		t.Fatalf("Get while the owner is present: OwnerGone %v, %v", got.OwnerGone, err)
	}

	eventually(t, "see the owner gone", func() bool {
		got, err := reader.Tasks().Get(bg, task.ID, "alice")
		return err == nil && got.OwnerGone
	})
	if got, err := owner.Tasks().Get(bg, task.ID, "alice"); err != nil || got.OwnerGone {
		t.Errorf("the owner's own Get: OwnerGone %v, %v; want false", got.OwnerGone, err)
	}
	if got, err := reader.Tasks().Get(bg, ended.ID, "alice"); err != nil || got.OwnerGone {
		t.Errorf("Get of an ended task of a gone owner: OwnerGone %v, %v; want false", got.OwnerGone, err)
	}
	failed, err := reader.Tasks().Abandon(bg, task.ID, task.Owner, lost, "The replica stopped.")
	if err != nil || failed.Status != fleet.TaskFailed {
		t.Fatalf("Abandon: %s, %v", failed.Status, err)
	}
	if got, err := reader.Tasks().Get(bg, task.ID, "alice"); err != nil || got.OwnerGone || got.Status != fleet.TaskFailed {
		t.Errorf("after Abandon: %s, OwnerGone %v, %v", got.Status, got.OwnerGone, err)
	}
}

// A replica whose own presence is not recorded (a Redis that came back
// empty) does not judge the others gone; nor, once it is recorded again,
// one missing from the set before a whole presence has passed, in which
// every live replica writes its heartbeat again.
func TestOwnerGoneNeedsOwnPresence(t *testing.T) {
	m := startRedis(t)
	long := testTiming
	long.presenceTTL = time.Hour
	reader := newReplicaOf(t, m.Addr(), "weather", long)
	recorded := func() bool {
		s, _ := m.ZScore("mcpcore:weather:replicas", reader.id)
		return s > 0
	}
	eventually(t, "record the reader's presence", recorded)
	ctx := context.Background()
	if reader.gone(ctx, "never-seen") {
		t.Error("a replica missing from the set was judged gone before a whole presence had passed")
	}
	m.FlushAll()
	if reader.gone(ctx, "never-seen") {
		t.Error("with the presence set empty, a replica was judged gone")
	}
	eventually(t, "record the reader's presence again", recorded)
	if reader.gone(ctx, "never-seen") {
		t.Error("right after Redis came back empty, a replica yet to write its heartbeat was judged gone")
	}
}

// Answers and cancels given on one replica reach the owner's Watch on
// another, once each; the replica that gave them hears nothing, and
// neither does a third that does not own the task.
func TestWatchDeliversAnswersAndCancels(t *testing.T) {
	m := startRedis(t)
	owner, other, third := newReplica(t, m.Addr()), newReplica(t, m.Addr()), newReplica(t, m.Addr())
	var toOwner, toOther, toThird idInbox
	defer owner.Tasks().Watch(toOwner.deliver)()
	defer other.Tasks().Watch(toOther.deliver)()
	defer third.Tasks().Watch(toThird.deliver)()
	ch := "mcpcore:weather:tasks"
	eventually(t, "see three watchers", func() bool { return m.PubSubNumSub(ch)[ch] == 3 })

	asking := working(owner.Tasks())
	asking.Status = fleet.TaskInputRequired
	asking.Questions = map[string]json.RawMessage{"ok": json.RawMessage(`{"method":"elicitation/create"}`)}
	if _, err := owner.Tasks().Create(bg, asking); err != nil {
		t.Fatal(err)
	}
	// An answer to no question changes nothing and signals nothing.
	if err := other.Tasks().Answer(bg, asking.ID, "alice", map[string]json.RawMessage{"zzz": json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := other.Tasks().Answer(bg, asking.ID, "alice", map[string]json.RawMessage{"ok": json.RawMessage(`{"action":"accept"}`)}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "deliver the answer", func() bool { return toOwner.count(asking.ID) == 1 })

	running, err := owner.Tasks().Create(bg, working(owner.Tasks()))
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Tasks().Cancel(bg, running.ID, "alice", "cancelled"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "deliver the cancel", func() bool { return toOwner.count(running.ID) == 1 })

	// The owner's own cancel is an echo to it.
	own, err := owner.Tasks().Create(bg, working(owner.Tasks()))
	if err != nil {
		t.Fatal(err)
	}
	if err := owner.Tasks().Cancel(bg, own.ID, "alice", "cancelled"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "drop the echo", func() bool {
		return owner.sum(t, "mcp.fleet.tasks.signals.dropped", "mcp.fleet.drop_reason", "echo") == 1
	})
	// A cancel of an ended task signals nothing.
	if err := other.Tasks().Cancel(bg, running.ID, "alice", "again"); !errchain.Is(err, fleet.ErrTaskEnded) {
		t.Fatalf("second cancel: %v", err)
	}

	// What is not a signal is dropped unread when long, and counted.
	m.Publish(ch, `{"id":"`+strings.Repeat("A", 4<<20)+`","from":"x","owner":"`+owner.id+`"}`)
	m.Publish(ch, `not json`)
	eventually(t, "count the malformed messages", func() bool {
		return owner.sum(t, "mcp.fleet.tasks.signals.dropped", "mcp.fleet.drop_reason", "malformed") == 2
	})
	// One channel keeps order: a last signal delivered means every one
	// before it that would come has come.
	last, err := owner.Tasks().Create(bg, working(owner.Tasks()))
	if err != nil {
		t.Fatal(err)
	}
	if err := third.Tasks().Cancel(bg, last.ID, "alice", "cancelled"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "deliver the last cancel", func() bool { return toOwner.count(last.ID) == 1 })

	if got := toOwner.all(); len(got) != 3 {
		t.Errorf("the owner heard %v, want the answer, the cancel and the last cancel once each", got)
	}
	if got := toOther.all(); len(got) != 0 {
		t.Errorf("the replica that answered and cancelled heard %v, want nothing", got)
	}
	if got := toThird.all(); len(got) != 0 {
		t.Errorf("a replica that owns none of the tasks heard %v, want nothing", got)
	}
	if n := owner.sum(t, "mcp.fleet.tasks.signals.delivered", "", ""); n != 3 {
		t.Errorf("mcp.fleet.tasks.signals.delivered = %d, want 3", n)
	}
}

// idInbox keeps the ids a Watch delivered.
type idInbox struct {
	mu  sync.Mutex
	ids []string
}

func (in *idInbox) deliver(id string) { in.mu.Lock(); in.ids = append(in.ids, id); in.mu.Unlock() }
func (in *idInbox) all() []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]string(nil), in.ids...)
}
func (in *idInbox) count(id string) int {
	n := 0
	for _, got := range in.all() {
		if got == id {
			n++
		}
	}
	return n
}

// A record is bounded: a Create, a result or answers that would make it
// larger than MaxTaskBytes fail with ErrTaskStoreFull and change nothing;
// a cancel always goes through.
func TestTaskRecordBounded(t *testing.T) {
	m := startRedis(t)
	client := goredis.NewClient(&goredis.Options{Addr: m.Addr()})
	t.Cleanup(func() { _ = client.Close() })
	f := newFleet(client, &Options{Server: "weather", MaxTaskBytes: 1024}, testTiming)
	t.Cleanup(func() { _ = f.Close() })
	s := f.Tasks()

	big := working(s)
	big.Message = strings.Repeat("x", 2048)
	if _, err := s.Create(bg, big); !errchain.Is(err, fleet.ErrTaskStoreFull) {
		t.Errorf("Create of a record over the bound: %v, want ErrTaskStoreFull", err)
	}
	asking := working(s)
	asking.Status = fleet.TaskInputRequired
	asking.Questions = map[string]json.RawMessage{"a": json.RawMessage(`{}`), "b": json.RawMessage(`{}`)}
	asking, err := s.Create(bg, asking)
	if err != nil {
		t.Fatal(err)
	}
	huge := json.RawMessage(`"` + strings.Repeat("y", 2048) + `"`)
	err = s.Answer(bg, asking.ID, "alice", map[string]json.RawMessage{"a": huge})
	if !errchain.Is(err, fleet.ErrTaskStoreFull) {
		t.Errorf("an answer over the bound: %v, want ErrTaskStoreFull", err)
	}
	if got, _ := s.Get(bg, asking.ID, "alice"); len(got.Questions) != 2 || len(got.Answers) != 0 {
		t.Errorf("a refused answer changed the task: questions %d, answers %d", len(got.Questions), len(got.Answers))
	}
	_, err = s.Update(bg, asking.ID, asking.Owner, fleet.TaskChange{Status: fleet.TaskCompleted, Outcome: huge})
	if !errchain.Is(err, fleet.ErrTaskStoreFull) {
		t.Errorf("a result over the bound: %v, want ErrTaskStoreFull", err)
	}
	if err := s.Cancel(bg, asking.ID, "alice", strings.Repeat("z", 2048)); err != nil {
		t.Errorf("Cancel with a long message: %v, want it to go through", err)
	}
}

// A stalled Redis costs a store call its bound, not the client's timeout.
func TestTaskCallsBounded(t *testing.T) {
	m := startRedis(t)
	tm := testTiming
	tm.task = 100 * time.Millisecond
	client := goredis.NewClient(&goredis.Options{Addr: m.Addr(), ReadTimeout: time.Minute, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { _ = client.Close() })
	f := newFleet(client, &Options{Server: "weather"}, tm)
	t.Cleanup(func() { _ = f.Close() })
	task, err := f.Tasks().Create(bg, working(f.Tasks()))
	if err != nil {
		t.Fatal(err)
	}
	stall := make(chan struct{})
	m.Server().SetPreHook(func(*server.Peer, string, ...string) bool { <-stall; return false })
	defer close(stall)
	done := make(chan error, 1)
	go func() { _, err := f.Tasks().Get(bg, task.ID, "alice"); done <- err }()
	select {
	case err := <-done:
		if err == nil || errchain.Is(err, fleet.ErrTaskNotFound) {
			t.Errorf("Get on a stalled Redis: %v, want a Redis error", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Get on a stalled Redis did not return")
	}
}
