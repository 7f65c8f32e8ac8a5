package redis

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// away is one part of a Fleet's knowledge that Redis is unreachable: set by
// the first call that fails, cleared by a probe that pings Redis once each
// retry interval, so that while Redis is away the part decides at once
// rather than wait on Redis with every call.
type away struct {
	flag atomic.Bool
	// mu orders the switches so that each is logged once.
	mu sync.Mutex
}

// is reports whether Redis is taken to be away.
func (a *away) is() bool { return a.flag.Load() }

// set marks Redis away, once: lost runs then (to log the switch), and the
// probe starts, which clears the mark and runs back when Redis answers.
func (a *away) set(f *Fleet, lost, back func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.flag.Load() {
		return
	}
	a.flag.Store(true)
	lost()
	if !f.spawn(func() { a.probe(f, back) }) {
		a.flag.Store(false) // closing: nothing would clear it
	}
}

// probe pings Redis once each retry interval until it answers or the
// Fleet closes.
func (a *away) probe(f *Fleet, back func()) {
	t := time.NewTicker(f.timing.retry)
	defer t.Stop()
	for {
		select {
		case <-f.done:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), f.timing.allow)
		err := f.client.Ping(ctx).Err()
		cancel()
		if err == nil {
			a.mu.Lock()
			a.flag.Store(false)
			back()
			a.mu.Unlock()
			return
		}
	}
}
