package redis

import (
	"context"
	"encoding/json"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// wire is an event as it travels on the channel: From names the replica
// that raised it, so that it can drop its own echo.
type wire struct {
	From string `json:"from"`
	fleet.Event
}

// bus is the Fleet's [fleet.Bus]: Publish queues, one goroutine sends, and
// each Listen has a subscription of its own.
type bus struct {
	f       *Fleet
	channel string
	queue   chan fleet.Event

	// Only publishLoop touches these.
	down    bool      // the last PUBLISH failed
	lastTry time.Time // when PUBLISH was last tried while down
}

func newBus(f *Fleet) *bus {
	return &bus{
		f:       f,
		channel: f.key("events"),
		queue:   make(chan fleet.Event, queueSize),
	}
}

// Publish queues e for the other replicas and returns at once; an event the
// queue has no room for is dropped and counted, as is one published after
// Close.
func (b *bus) Publish(e fleet.Event) {
	if b.f.closed() {
		b.f.meters.drop(reasonClosed)
		return
	}
	select {
	case b.queue <- e:
	default:
		b.f.meters.drop(reasonQueueFull)
	}
}

// publishLoop sends the queued events until Close.
func (b *bus) publishLoop() {
	defer b.f.wg.Done()
	for {
		select {
		case <-b.f.done:
			return
		case e := <-b.queue:
			b.send(e)
		}
	}
}

// send PUBLISHes one event. While Redis is away it tries at most once each
// retry interval and drops the events in between, so that a stalled Redis
// costs one timeout a second, not one for each event.
func (b *bus) send(e fleet.Event) {
	if b.down && time.Since(b.lastTry) < b.f.timing.retry {
		b.f.meters.drop(reasonUnreachable)
		return
	}
	payload, err := json.Marshal(wire{From: b.f.id, Event: e})
	if err != nil { // cannot happen with strings, but an event lost is better than a panic
		b.f.meters.drop(reasonMalformed)
		return
	}
	b.lastTry = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), b.f.timing.publish)
	err = b.f.client.Publish(ctx, b.channel, payload).Err()
	cancel()
	if err != nil {
		b.f.meters.drop(reasonUnreachable)
		if !b.down {
			b.down = true
			b.f.log.Warn("Redis is unreachable: notifications reach this replica's subscribers only until it returns",
				"channel", b.channel, "error", err)
		}
		return
	}
	b.f.meters.published.Add(context.Background(), 1)
	if b.down {
		b.down = false
		b.f.log.Info("Redis is reachable again: notifications reach every replica", "channel", b.channel)
	}
}

// Listen subscribes to the fleet's channel and calls deliver, from one
// goroutine, with each event another replica publishes. It returns at once,
// even with Redis away: go-redis subscribes, and after a lost connection
// subscribes again, by itself. Each Listen has a subscription of its own,
// so two Listens each hear every event. stop ends the subscription and
// returns once deliver is no longer called; Close stops every Listen.
func (b *bus) Listen(deliver func(fleet.Event)) (stop func()) {
	return b.f.subscribe(b.channel, "the other replicas' notifications", func(payload string) { b.receive(payload, deliver) })
}

// maxPayload bounds the message that can be an event: a replica id, a
// method and a URI that a server notifies of, at most 8 KiB
// (mcpcore.MaxURIBytes; servers drop any longer, and never publish one),
// each byte escaped in JSON at most 6 bytes long. Anything longer on the
// channel was forged, and is dropped before it is decoded.
const maxPayload = 64 << 10

// receive hands deliver one event of another replica.
func (b *bus) receive(payload string, deliver func(fleet.Event)) {
	if len(payload) > maxPayload {
		b.f.meters.drop(reasonMalformed)
		return
	}
	var w wire
	if err := json.Unmarshal([]byte(payload), &w); err != nil || w.Method == "" || w.From == "" {
		b.f.meters.drop(reasonMalformed)
		return
	}
	if w.From == b.f.id {
		b.f.meters.drop(reasonEcho)
		return
	}
	deliver(w.Event)
	b.f.meters.delivered.Add(context.Background(), 1)
}
