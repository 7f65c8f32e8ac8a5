package fleet

import (
	"context"
	"testing"
	"time"
)

// A quota of 10 a second admits a burst of 10, then one call each tenth of a
// second, and says how long to wait in between.
func TestLocalCountsAsGCRA(t *testing.T) {
	now := time.Unix(1000, 0)
	c := &Local{now: func() time.Time { return now }}
	l := Limit{Calls: 10, Per: time.Second}
	allowed := 0
	for range 30 {
		d, err := c.Allow(context.Background(), "k", l)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			allowed++
		} else if d.RetryAfter <= 0 || d.RetryAfter > 100*time.Millisecond {
			t.Fatalf("RetryAfter = %v, want within the next tenth of a second", d.RetryAfter)
		}
	}
	if allowed != 10 {
		t.Fatalf("a burst of 30 admitted %d, want 10", allowed)
	}
	now = now.Add(100 * time.Millisecond)
	if d, _ := c.Allow(context.Background(), "k", l); !d.Allowed {
		t.Fatal("a tenth of a second later, one more call should be allowed")
	}
	if d, _ := c.Allow(context.Background(), "k", l); d.Allowed {
		t.Fatal("but only one")
	}
	// Another key has a quota of its own.
	if d, _ := c.Allow(context.Background(), "other", l); !d.Allowed {
		t.Fatal("another key shares no quota")
	}
	// Keys whose quota is whole again are forgotten.
	now = now.Add(2 * time.Minute)
	c.Allow(context.Background(), "third", l)
	if len(c.tat) != 1 {
		t.Fatalf("%d keys kept after their quotas were whole again, want 1", len(c.tat))
	}
}

func TestLimitShare(t *testing.T) {
	for _, tc := range []struct {
		l    Limit
		n    int
		want int
	}{
		{Limit{10, time.Second}, 1, 10},
		{Limit{10, time.Second}, 3, 4},
		{Limit{10, time.Second}, 0, 10},
		{Limit{2, time.Second}, 5, 1},
	} {
		if got := tc.l.Share(tc.n).Calls; got != tc.want {
			t.Errorf("%v.Share(%d) = %d calls, want %d", tc.l, tc.n, got, tc.want)
		}
	}
	if err := (Limit{Calls: 0, Per: time.Second}).Check(); err == nil {
		t.Error("0 calls per second should not check")
	}
}
