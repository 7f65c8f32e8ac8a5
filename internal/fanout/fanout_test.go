package fanout

import (
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestAStuckReceiverHoldsUpNoOne: items for a receiver whose delivery
// blocks are queued up to the queue's size and the rest dropped, without
// the sender waiting; another receiver gets every item; the drops are
// reported once, when the stuck receiver's queue drains; a repeat of a
// waiting item is not queued; and no goroutine outlives the queues.
func TestAStuckReceiverHoldsUpNoOne(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var mu sync.Mutex
	reports := map[string][]int{}
	qs := New(4, func(r string, n int) {
		mu.Lock()
		defer mu.Unlock()
		reports[r] = append(reports[r], n)
	})
	unblock := make(chan struct{})
	got := make(chan int, 1)
	const items = 100
	for i := range items {
		qs.Send("stuck", "", func() { <-unblock })
		// The sender never waits on "stuck"; "reader" gets each item.
		if !qs.Send("reader", "", func() { got <- i }) {
			t.Fatalf("item %d for the reader was not queued", i)
		}
		if n := <-got; n != i {
			t.Fatalf("item %d delivered as %d", i, n)
		}
	}
	// Repeats of a waiting item are one delivery.
	keyed := make(chan string, 2)
	qs.Send("keyed", "", func() { <-unblock })
	for _, what := range []string{"first", "repeat"} {
		if queued := qs.Send("keyed", "uri", func() { keyed <- what }); queued != (what == "first") {
			t.Errorf("the %s keyed item: queued %v", what, queued)
		}
	}
	close(unblock)
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := reports["stuck"]
		mu.Unlock()
		if len(n) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if what := <-keyed; what != "first" {
		t.Errorf("the keyed item delivered is the %s", what)
	}
	mu.Lock()
	defer mu.Unlock()
	// One item was being delivered and 4 waited: the other 95 or 96
	// (if the first came before the goroutine took it) were dropped.
	if r := reports["stuck"]; len(r) != 1 || r[0] < items-5 || r[0] > items-4 {
		t.Errorf("drops reported for the stuck receiver: %v, want one report of %d or %d", r, items-5, items-4)
	}
	if r := reports["reader"]; len(r) != 0 {
		t.Errorf("drops reported for the receiver that read: %v", r)
	}
}
