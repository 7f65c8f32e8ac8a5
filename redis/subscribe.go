package redis

import (
	"context"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// A subscription is one subscriber's hold on a channel and the goroutine
// that reads it: each Listen of the bus, and each Watch of the task store.
type subscription struct {
	cancel   context.CancelFunc
	ps       *goredis.PubSub
	finished chan struct{}
	once     sync.Once
}

// subscribe subscribes to channel and calls receive, from one goroutine,
// with each message's payload until stop is called or the Fleet closes. It
// returns at once, even with Redis away: go-redis subscribes, and after a
// lost connection subscribes again, by itself, which is logged as listening
// again for what. stop returns once receive is no longer called.
func (f *Fleet) subscribe(channel, what string, receive func(payload string)) (stop func()) {
	return f.subscribeWith(channel, what, receive, nil)
}

// subscribeWith is subscribe that also calls subscribed, when not nil, each
// time the subscription is made: at first, and again after a lost
// connection, when Redis is back and what was published in between lost.
func (f *Fleet) subscribeWith(channel, what string, receive func(payload string), subscribed func()) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &subscription{
		cancel:   cancel,
		ps:       f.client.Subscribe(ctx), // no channel yet: no round trip here
		finished: make(chan struct{}),
	}
	// Under f.mu, so that Close either sees this subscription or has
	// begun and is refused it.
	f.mu.Lock()
	if f.closed() {
		f.mu.Unlock()
		cancel()
		_ = s.ps.Close()
		return func() {}
	}
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	go f.read(ctx, s, channel, what, receive, subscribed)
	return func() {
		s.stop()
		f.mu.Lock()
		delete(f.subs, s)
		f.mu.Unlock()
	}
}

func (f *Fleet) read(ctx context.Context, s *subscription, channel, what string, receive func(payload string), subscribed func()) {
	defer close(s.finished)
	// An error here (Redis away) still records the channel, and the
	// receiving loop subscribes to it as it reconnects.
	_ = s.ps.Subscribe(ctx, channel)
	subscriptions := 0
	for msg := range s.ps.ChannelWithSubscriptions() {
		if ctx.Err() != nil {
			continue // stopping: drain, so that go-redis's goroutine ends too
		}
		switch msg := msg.(type) {
		case *goredis.Subscription:
			if msg.Kind != "subscribe" {
				continue
			}
			if subscriptions++; subscriptions > 1 {
				f.log.Info("listening again for "+what, "channel", channel)
			}
			if subscribed != nil {
				subscribed()
			}
		case *goredis.Message:
			receive(msg.Payload)
		}
	}
}

// stop ends the subscription and waits for its goroutine.
func (s *subscription) stop() {
	s.once.Do(func() {
		s.cancel()
		_ = s.ps.Close()
	})
	<-s.finished
}

// stopSubscriptions stops every subscription, for Close.
func (f *Fleet) stopSubscriptions() {
	f.mu.Lock()
	subs := make([]*subscription, 0, len(f.subs))
	for s := range f.subs {
		subs = append(subs, s)
	}
	clear(f.subs)
	f.mu.Unlock()
	for _, s := range subs {
		s.stop()
	}
}
