package taskstoretest

import (
	"sync"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// An Advancer is a store under test whose clock the suite can move, so
// that expiry is tested without waiting for a TTL. [Run] skips the tests of
// time for a store that is not one.
type Advancer interface {
	// Advance moves the store's clock forward by d.
	Advance(d time.Duration)
}

// A Clock is a clock for a store under test: give Now to the store, and
// [Clocked] to [Run]. It is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock at a fixed moment, with no monotonic reading, so
// that times compare the same after any round trip.
func NewClock() *Clock {
	return &Clock{t: time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC)}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Clocked is a store that reads Clock, as [Run] is given it: it is an
// [Advancer].
type Clocked struct {
	fleet.TaskStore
	*Clock
}
