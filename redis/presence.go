package redis

import (
	"context"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// heartbeatLoop keeps this replica in the sorted set mcpcore:<server>:replicas
// (member: its id; score: when it expires, in Unix milliseconds) and counts
// the members alive, so that while Redis is away each replica knows its
// share of a quota. A replica that stops without Close drops out of the
// count when its score passes.
func (f *Fleet) heartbeatLoop() {
	defer f.wg.Done()
	t := time.NewTicker(f.timing.heartbeat)
	defer t.Stop()
	for {
		f.heartbeat()
		select {
		case <-f.done:
			return
		case <-t.C:
		}
	}
}

// heartbeat renews this replica's presence, forgets the replicas whose
// presence has passed, and counts the rest. On an error the last count
// stands.
func (f *Fleet) heartbeat() {
	ctx, cancel := context.WithTimeout(context.Background(), f.timing.publish)
	defer cancel()
	key := f.key("replicas")
	now := time.Now()
	var added, card *goredis.IntCmd
	_, err := f.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		added = p.ZAdd(ctx, key, goredis.Z{Score: float64(now.Add(f.timing.presenceTTL).UnixMilli()), Member: f.id})
		p.ZRemRangeByScore(ctx, key, "-inf", "("+strconv.FormatInt(now.UnixMilli(), 10))
		card = p.ZCard(ctx, key)
		// The set goes when the last replica does.
		p.PExpire(ctx, key, f.timing.presenceTTL)
		return nil
	})
	if err != nil {
		return
	}
	if added.Val() > 0 {
		f.joined.Store(now.UnixMilli())
	}
	f.replicas.Store(max(1, card.Val()))
}

// replicaCount is the number of replicas last seen alive, this one
// included: at least 1.
func (f *Fleet) replicaCount() int { return int(f.replicas.Load()) }

// gone reports whether replica's presence has passed, by this replica's
// clock as the heartbeats write it. It judges only once this replica's own
// presence is recorded; and a replica missing from the set (heartbeats
// remove those whose presence passed) only once this one has been in the
// set for a whole presence, so that a Redis that came back empty does not
// make the replicas that have not yet written their heartbeat look gone.
// An error says not gone. Its one round trip is bounded as a task store's
// call.
func (f *Fleet) gone(ctx context.Context, replica string) bool {
	ctx, cancel := context.WithTimeout(ctx, f.timing.task)
	defer cancel()
	scores, err := f.client.ZMScore(ctx, f.key("replicas"), replica, f.id).Result()
	if err != nil || len(scores) != 2 {
		return false
	}
	now := time.Now().UnixMilli()
	if scores[1] < float64(now) {
		return false // this replica's own presence is not recorded
	}
	if scores[0] == 0 { // missing
		return now-f.joined.Load() > f.timing.presenceTTL.Milliseconds()
	}
	return scores[0] < float64(now)
}

// leave takes this replica out of the set, for Close, so that the others'
// shares grow at once rather than when its presence passes.
func (f *Fleet) leave() {
	ctx, cancel := context.WithTimeout(context.Background(), f.timing.publish)
	defer cancel()
	_ = f.client.ZRem(ctx, f.key("replicas"), f.id).Err()
}
