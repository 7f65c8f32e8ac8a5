// Package fanout hands work meant for many receivers (the notifications of
// a resource's subscribers) to one queue per receiver, each drained by a
// goroutine of its own, so that the sender never waits on a receiver and a
// receiver that is slow, or does not read at all, holds up no other.
//
// A queue holds at most its size of undelivered items; an item sent to a
// full queue is dropped, and counted. An episode of drops ends when the
// queue has drained: the count is then reported once. Work that repeats
// an item still waiting in the queue (the same key) is not queued again,
// so that a burst of one change costs one delivery.
//
// A queue's goroutine starts with its first item and ends as soon as the
// queue is empty, so a receiver that is gone (a closed session, whose
// deliveries fail at once) leaves no goroutine behind.
package fanout

import "sync"

// Queues are the queues of the receivers of type R.
type Queues[R comparable] struct {
	size    int
	dropped func(r R, n int)

	mu    sync.Mutex
	queue map[R]*queue
}

// A queue is one receiver's items, oldest first, and the keys of those
// that have keys.
type queue struct {
	items   []item
	pending map[string]bool
	dropped int
}

type item struct {
	key     string
	deliver func()
}

// New returns the queues of receivers, each holding at most size items;
// dropped is told, once per episode, how many items a receiver's full
// queue dropped.
func New[R comparable](size int, dropped func(r R, n int)) *Queues[R] {
	return &Queues[R]{size: max(size, 1), dropped: dropped, queue: map[R]*queue{}}
}

// Send queues deliver for r, and reports whether it is queued: false when
// r's queue is full (the item is dropped and counted) or already holds an
// item of key (not queued again; "" is no key). It never waits for a
// delivery.
func (qs *Queues[R]) Send(r R, key string, deliver func()) bool {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	q := qs.queue[r]
	if q == nil {
		q = &queue{}
		qs.queue[r] = q
		go qs.drain(r, q)
	}
	if key != "" && q.pending[key] {
		return false
	}
	if len(q.items) >= qs.size {
		q.dropped++
		return false
	}
	if key != "" {
		if q.pending == nil {
			q.pending = map[string]bool{}
		}
		q.pending[key] = true
	}
	q.items = append(q.items, item{key, deliver})
	return true
}

// drain delivers r's items in order until the queue is empty, then ends
// the queue and reports its drops.
func (qs *Queues[R]) drain(r R, q *queue) {
	for {
		qs.mu.Lock()
		if len(q.items) == 0 {
			delete(qs.queue, r)
			n := q.dropped
			qs.mu.Unlock()
			if n > 0 && qs.dropped != nil {
				qs.dropped(r, n)
			}
			return
		}
		it := q.items[0]
		q.items[0] = item{} // the delivered item is not kept alive
		q.items = q.items[1:]
		if it.key != "" {
			delete(q.pending, it.key)
		}
		qs.mu.Unlock()
		it.deliver()
	}
}
