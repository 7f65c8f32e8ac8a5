package redis

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

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

	listeners map[*listener]struct{} // under f.mu
}

func newBus(f *Fleet) *bus {
	return &bus{
		f:         f,
		channel:   f.key("events"),
		queue:     make(chan fleet.Event, queueSize),
		listeners: map[*listener]struct{}{},
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

// A listener is one Listen's subscription and the goroutine that reads it.
type listener struct {
	cancel   context.CancelFunc
	ps       *goredis.PubSub
	finished chan struct{}
	once     sync.Once
}

// Listen subscribes to the fleet's channel and calls deliver, from one
// goroutine, with each event another replica publishes. It returns at once,
// even with Redis away: go-redis subscribes, and after a lost connection
// subscribes again, by itself. Each Listen has a subscription of its own,
// so two Listens each hear every event. stop ends the subscription and
// returns once deliver is no longer called; Close stops every Listen.
func (b *bus) Listen(deliver func(fleet.Event)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	l := &listener{
		cancel:   cancel,
		ps:       b.f.client.Subscribe(ctx), // no channel yet: no round trip here
		finished: make(chan struct{}),
	}
	// Under f.mu, so that Close either sees this listener or has begun
	// and is refused it.
	b.f.mu.Lock()
	if b.f.closed() {
		b.f.mu.Unlock()
		cancel()
		_ = l.ps.Close()
		return func() {}
	}
	b.listeners[l] = struct{}{}
	b.f.mu.Unlock()
	go b.listen(ctx, l, deliver)
	return func() {
		l.stop()
		b.f.mu.Lock()
		delete(b.listeners, l)
		b.f.mu.Unlock()
	}
}

func (b *bus) listen(ctx context.Context, l *listener, deliver func(fleet.Event)) {
	defer close(l.finished)
	// An error here (Redis away) still records the channel, and the
	// receiving loop subscribes to it as it reconnects.
	_ = l.ps.Subscribe(ctx, b.channel)
	subscriptions := 0
	for msg := range l.ps.ChannelWithSubscriptions() {
		if ctx.Err() != nil {
			continue // stopping: drain, so that go-redis's goroutine ends too
		}
		switch msg := msg.(type) {
		case *goredis.Subscription:
			if msg.Kind != "subscribe" {
				continue
			}
			if subscriptions++; subscriptions > 1 {
				b.f.log.Info("listening again for the other replicas' notifications", "channel", b.channel)
			}
		case *goredis.Message:
			b.receive(msg.Payload, deliver)
		}
	}
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

// stop ends the subscription and waits for its goroutine.
func (l *listener) stop() {
	l.once.Do(func() {
		l.cancel()
		_ = l.ps.Close()
	})
	<-l.finished
}

// stopListeners stops every Listen, for Close.
func (b *bus) stopListeners() {
	b.f.mu.Lock()
	ls := make([]*listener, 0, len(b.listeners))
	for l := range b.listeners {
		ls = append(ls, l)
	}
	clear(b.listeners)
	b.f.mu.Unlock()
	for _, l := range ls {
		l.stop()
	}
}
