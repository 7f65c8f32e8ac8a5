package fleet

import (
	"context"
	"sync"
	"time"
)

// Local is a [Limiter] that counts in this process, with the algorithm of
// the Redis limiter, so that a quota means the same with or without Redis.
// Its zero value is ready to use.
type Local struct {
	mu sync.Mutex
	// tat is each key's theoretical arrival time: the moment its quota
	// is whole again. A key whose tat has passed is as good as absent,
	// so sweep drops it and memory follows the callers of the last
	// window, not every caller ever seen.
	tat       map[string]time.Time
	lastSweep time.Time
	now       func() time.Time // for tests; nil is time.Now
}

// NewLocal returns an empty Local.
func NewLocal() *Local { return &Local{} }

// Allow counts one call against key's limit; it never fails.
func (c *Local) Allow(_ context.Context, key string, l Limit) (Decision, error) {
	if l.Calls < 1 || l.Per <= 0 {
		return Decision{Allowed: true}, nil
	}
	now := time.Now()
	if c.now != nil {
		now = c.now()
	}
	interval := l.Per / time.Duration(l.Calls)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tat == nil {
		c.tat = map[string]time.Time{}
	}
	c.sweep(now)
	tat := c.tat[key]
	if tat.Before(now) {
		tat = now
	}
	// A call is allowed while the quota it would use starts within Per of
	// now: that is the burst of all Calls at once.
	next := tat.Add(interval)
	if wait := next.Sub(now) - l.Per; wait > 0 {
		return Decision{RetryAfter: wait}, nil
	}
	c.tat[key] = next
	return Decision{Allowed: true}, nil
}

// sweep drops, at most once a minute, the keys whose quota is whole again.
func (c *Local) sweep(now time.Time) {
	if now.Sub(c.lastSweep) < time.Minute {
		return
	}
	c.lastSweep = now
	for k, t := range c.tat {
		if !t.After(now) {
			delete(c.tat, k)
		}
	}
}
