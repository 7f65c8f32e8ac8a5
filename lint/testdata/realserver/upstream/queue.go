package upstream

import (
	"context"
	"fmt"
	"time"
)

// A queue bounds how many calls to the catalog are in flight at once: the
// catalog's fair-use policy allows a few concurrent requests per key, and
// answers 429 to the rest.
type queue struct {
	slots chan struct{}
	wait  time.Duration // how long a call waits for a slot before giving up
}

func newQueue(size int, wait time.Duration) *queue {
	return &queue{slots: make(chan struct{}, max(size, 1)), wait: wait}
}

// do runs fn once a slot is free. It gives up with ErrQueueFull when no
// slot frees up within q.wait, and with ctx's error when ctx ends first.
func (q *queue) do(ctx context.Context, fn func() error) error {
	t := time.NewTimer(q.wait)
	defer t.Stop()
	select {
	case q.slots <- struct{}{}:
	case <-t.C:
		return fmt.Errorf("%w: %d calls in flight for %s", ErrQueueFull, cap(q.slots), q.wait)
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-q.slots }()
	return fn()
}
