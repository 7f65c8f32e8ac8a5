package redis

import (
	"errors"

	goredis "github.com/redis/go-redis/v9"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// errRedisAway is what a call of the task store fails with, at once, while
// Redis is taken to be away.
var errRedisAway = errors.New("redis is unreachable (tried again once a second)")

// Healthy reports whether the task store takes Redis to answer: false from
// a call that found it unreachable until the probe finds it back; see
// [fleet.TaskStoreHealth].
func (s *taskStore) Healthy() bool { return !s.away.is() }

// goAway notes that Redis is unreachable, once, and starts the probe that
// notes its return.
func (s *taskStore) goAway(err error) {
	s.away.set(s.f, func() {
		s.f.log.Warn("Redis is unreachable: calls that may run synchronously do, tools that run only as tasks are refused as retryable, "+
			"and each replica answers for the tasks it runs until it returns", "error", err)
	}, func() {
		s.f.log.Info("Redis is reachable again: tasks are stored for the whole fleet")
	})
}

// unreachable reports whether err of a call on Redis says Redis did not
// answer (a connection refused, reset or timed out), or answered that it
// cannot serve now (loading its data, a replica without its primary, a
// cluster down), rather than refused the call itself.
func unreachable(err error) bool {
	e, ok := errchain.As[goredis.Error](err)
	if !ok {
		return true
	}
	for _, p := range []string{"LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "READONLY"} {
		if goredis.HasErrorPrefix(e, p) {
			return true
		}
	}
	return false
}
