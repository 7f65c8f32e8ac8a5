package redis

import (
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// inbox keeps what a Listen delivered.
type inbox struct {
	mu     sync.Mutex
	events []fleet.Event
}

func (in *inbox) deliver(e fleet.Event) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.events = append(in.events, e)
}

func (in *inbox) got() []fleet.Event {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.events)
}

func (in *inbox) has(e fleet.Event) bool { return slices.Contains(in.got(), e) }

const channel = "mcpcore:weather:events"

// An event published on one replica reaches each of the others once, and
// not the one that published it.
func TestBusDeliversToEachOtherReplicaOnce(t *testing.T) {
	m := startRedis(t)
	a, b, c := newReplica(t, m.Addr()), newReplica(t, m.Addr()), newReplica(t, m.Addr())
	var inA, inB, inC inbox
	for _, l := range []struct {
		r  *replica
		in *inbox
	}{{a, &inA}, {b, &inB}, {c, &inC}} {
		stop := l.r.Bus().Listen(l.in.deliver)
		t.Cleanup(stop)
	}
	eventually(t, "see three subscribers", func() bool { return m.PubSubNumSub(channel)[channel] == 3 })

	updated := fleet.Event{Method: fleet.ResourceUpdated, URI: "weather://paris"}
	c.Bus().Publish(updated)
	eventually(t, "deliver to A and B", func() bool { return inA.has(updated) && inB.has(updated) })
	// One channel keeps order, so once a later event from B is in, every
	// copy of the first that would come has come.
	later := fleet.Event{Method: fleet.ToolListChanged}
	b.Bus().Publish(later)
	eventually(t, "deliver the later event to A and C", func() bool { return inA.has(later) && inC.has(later) })

	if got, want := inA.got(), []fleet.Event{updated, later}; !slices.Equal(got, want) {
		t.Errorf("A got %v, want %v", got, want)
	}
	if got, want := inB.got(), []fleet.Event{updated}; !slices.Equal(got, want) {
		t.Errorf("B got %v, want %v: its own event must not come back", got, want)
	}
	if got, want := inC.got(), []fleet.Event{later}; !slices.Equal(got, want) {
		t.Errorf("C got %v, want %v: its own event must not come back", got, want)
	}
	if n := c.sum(t, "mcp.fleet.notifications.published", "", ""); n != 1 {
		t.Errorf("C published %d, want 1", n)
	}
	if n := c.sum(t, "mcp.fleet.notifications.dropped", "mcp.fleet.drop_reason", "echo"); n != 1 {
		t.Errorf("C dropped %d echoes, want 1", n)
	}
	if n := a.sum(t, "mcp.fleet.notifications.delivered", "", ""); n != 2 {
		t.Errorf("A delivered %d, want 2", n)
	}

	// What is not an event is dropped and counted, not delivered.
	m.Publish(channel, `{"from":"someone","uri":"no method"}`)
	m.Publish(channel, `not json`)
	eventually(t, "count the malformed messages", func() bool {
		return a.sum(t, "mcp.fleet.notifications.dropped", "mcp.fleet.drop_reason", "malformed") == 2
	})
	if n := len(inA.got()); n != 2 {
		t.Errorf("A has %d events after malformed messages, want still 2", n)
	}
}

// stop returns once deliver is no longer called, and the subscription is
// gone from Redis.
func TestBusStopEndsTheSubscription(t *testing.T) {
	m := startRedis(t)
	a, b := newReplica(t, m.Addr()), newReplica(t, m.Addr())
	var first, second inbox
	stop := a.Bus().Listen(first.deliver)
	stop2 := a.Bus().Listen(second.deliver)
	defer stop2()
	eventually(t, "see two subscribers", func() bool { return m.PubSubNumSub(channel)[channel] == 2 })
	e := fleet.Event{Method: fleet.PromptListChanged}
	b.Bus().Publish(e)
	eventually(t, "deliver to both listeners", func() bool { return first.has(e) && second.has(e) })
	stop()
	stop() // harmless twice
	eventually(t, "see one subscriber", func() bool { return m.PubSubNumSub(channel)[channel] == 1 })
	e2 := fleet.Event{Method: fleet.ResourceListChanged}
	b.Bus().Publish(e2)
	eventually(t, "deliver to the listener left", func() bool { return second.has(e2) })
	if first.has(e2) {
		t.Error("a stopped listener was delivered an event")
	}
}

// go-redis subscribes again by itself after Redis restarts.
func TestBusListensAgainAfterRedisRestarts(t *testing.T) {
	m := startRedis(t)
	addr := m.Addr()
	a, b := newReplica(t, addr), newReplica(t, addr)
	var in inbox
	defer b.Bus().Listen(in.deliver)()
	eventually(t, "see the subscriber", func() bool { return m.PubSubNumSub(channel)[channel] == 1 })

	m.Close()
	m2 := restartRedis(t, addr)
	eventually(t, "see the subscriber again", func() bool { return m2.PubSubNumSub(channel)[channel] == 1 })

	// The publisher's pooled connection may be the old one and fail
	// once: events are lost while Redis is away, and then flow again.
	e := fleet.Event{Method: fleet.ResourceUpdated, URI: "weather://oslo"}
	eventually(t, "deliver after the restart", func() bool {
		a.Bus().Publish(e)
		time.Sleep(50 * time.Millisecond)
		return in.has(e)
	})
	if n := b.logs.count(slog.LevelInfo, "listening again"); n != 1 {
		t.Errorf("logged %d times that it listens again, want 1: %q", n, b.logs.all())
	}
}

// Publish returns at once with Redis gone, dropping what it cannot send,
// and the outage is logged once, as is its end.
func TestPublishNeverBlocksWhenRedisIsGone(t *testing.T) {
	m := startRedis(t)
	addr := m.Addr()
	a := newReplica(t, addr)
	m.Close()

	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 10 * queueSize {
			a.Bus().Publish(fleet.Event{Method: fleet.ToolListChanged})
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Publish blocked with Redis gone")
	}
	eventually(t, "count unreachable drops", func() bool {
		return a.sum(t, "mcp.fleet.notifications.dropped", "mcp.fleet.drop_reason", "unreachable") > 0
	})
	if n := a.sum(t, "mcp.fleet.notifications.dropped", "mcp.fleet.drop_reason", "queue_full"); n == 0 {
		t.Error("no event dropped for a full queue, after ten queues' worth")
	}

	restartRedis(t, addr)
	eventually(t, "publish after Redis returns", func() bool {
		a.Bus().Publish(fleet.Event{Method: fleet.ToolListChanged})
		time.Sleep(20 * time.Millisecond)
		return a.sum(t, "mcp.fleet.notifications.published", "", "") > 0
	})
	if n := a.logs.count(slog.LevelWarn, "notifications reach this replica's subscribers only"); n != 1 {
		t.Errorf("warned %d times of the outage, want 1: %q", n, a.logs.all())
	}
	if n := a.logs.count(slog.LevelInfo, "notifications reach every replica"); n != 1 {
		t.Errorf("told %d times of the return, want 1: %q", n, a.logs.all())
	}
}

// Publish after Close drops the event, counted.
func TestPublishAfterClose(t *testing.T) {
	m := startRedis(t)
	a := newReplica(t, m.Addr())
	stop := a.Bus().Listen(func(fleet.Event) {})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	stop() // after Close, harmless
	a.Bus().Publish(fleet.Event{Method: fleet.ToolListChanged})
	if n := a.sum(t, "mcp.fleet.notifications.dropped", "mcp.fleet.drop_reason", "closed"); n != 1 {
		t.Errorf("dropped %d after Close, want 1", n)
	}
	a.Bus().Listen(func(fleet.Event) { t.Error("delivered after Close") })()
}

// A message on the channel too long to be an event that a server publishes
// (a 4 MB URI) is dropped before it is decoded, and counted as malformed;
// the events after it are delivered.
func TestBusDropsForgedLongEvents(t *testing.T) {
	m := startRedis(t)
	a, b := newReplica(t, m.Addr()), newReplica(t, m.Addr())
	var in inbox
	defer a.Bus().Listen(in.deliver)()
	eventually(t, "see the subscriber", func() bool { return m.PubSubNumSub(channel)[channel] == 1 })

	forged := `{"from":"someone","method":"notifications/resources/updated","uri":"weather://` + strings.Repeat("a", 4<<20) + `"}`
	m.Publish(channel, forged)
	eventually(t, "count the forged message", func() bool {
		return a.sum(t, "mcp.fleet.notifications.dropped", "mcp.fleet.drop_reason", "malformed") == 1
	})
	e := fleet.Event{Method: fleet.ResourceUpdated, URI: "weather://" + strings.Repeat("a", 8<<10-len("weather://"))}
	b.Bus().Publish(e)
	eventually(t, "deliver the event after it", func() bool { return in.has(e) })
	if got := in.got(); len(got) != 1 {
		t.Errorf("delivered %d events, want the one published (a URI of 8 KiB)", len(got))
	}
}
