package fleet

import (
	"context"
	"fmt"
	"time"
)

// A Limit is a quota of calls: at most Calls in any window of Per, with a
// burst of all Calls at once (the generic cell rate algorithm, as
// github.com/go-redis/redis_rate counts it). The zero Limit is no limit.
type Limit struct {
	Calls int
	Per   time.Duration
}

// IsZero reports whether l is no limit.
func (l Limit) IsZero() bool { return l.Calls == 0 && l.Per == 0 }

// String reads as "10 calls per 1s".
func (l Limit) String() string {
	unit := "calls"
	if l.Calls == 1 {
		unit = "call"
	}
	return fmt.Sprintf("%d %s per %s", l.Calls, unit, l.Per)
}

// Check says what is wrong with a Limit that is not zero, or nil.
func (l Limit) Check() error {
	if l.IsZero() {
		return nil
	}
	if l.Calls < 1 || l.Per <= 0 {
		return fmt.Errorf("a rate limit needs at least 1 call per a positive duration, not %d per %s", l.Calls, l.Per)
	}
	return nil
}

// Share is this replica's part of l when the fleet's count cannot be
// reached and n replicas count on their own: Calls divided by n, rounded up,
// at least 1.
func (l Limit) Share(n int) Limit {
	if n <= 1 {
		return l
	}
	return Limit{Calls: max(1, (l.Calls+n-1)/n), Per: l.Per}
}

// A Decision is a [Limiter]'s answer for one call.
type Decision struct {
	// Allowed is whether the call may run.
	Allowed bool
	// RetryAfter is, for a call not allowed, how long until one would be.
	RetryAfter time.Duration
}

// A Limiter counts calls against quotas. The server asks it once for each
// call of a definition with a [Limit], before the handler runs, with a key
// that names the server, the definition and the caller.
type Limiter interface {
	// Allow counts one call against key's limit and says whether it may
	// run. An error means the limiter could not decide; the server then
	// admits the call and logs it once, rather than fail calls because a
	// counter is away. A Limiter that can fall back on a count of its own
	// (as package redis does) decides and returns no error.
	Allow(ctx context.Context, key string, l Limit) (Decision, error)
}
