package redis

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/seed417024ea/mcpcore/fleet"
)

// indexSpan is how long an entry of a principal's index may stay: past the
// longest a task lives (24 hours, and its retention once ended), with a
// margin for the clocks of the replicas. Older entries are dropped as new
// ones come; an index no task joins for that long expires whole.
const indexSpan = 25 * time.Hour

// indexKey is the sorted set of principal's tasks, scored by creation
// time (ms): mcpcore:<server>:tasks-of:{<principal>}. Its hash tag is the
// principal's, so that it is one slot; a task's own key is another.
func (s *taskStore) indexKey(principal string) string {
	return s.f.key("tasks-of:{" + principal + "}")
}

// index adds task t, just created, to its principal's index, in one
// transaction on that one key, and drops the entries too old to name a
// live task. A task whose entry could not be written is reported as not
// created (the record then expires unread), so that every task a client
// can read it can also list.
func (s *taskStore) index(ctx context.Context, t fleet.Task) error {
	ctx, cancel := context.WithTimeout(ctx, s.f.timing.task)
	defer cancel()
	key, created := s.indexKey(t.Principal), t.Created.UnixMilli()
	_, err := s.f.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.ZAdd(ctx, key, goredis.Z{Score: float64(created), Member: t.ID})
		p.ZRemRangeByScore(ctx, key, "-inf", "("+strconv.FormatInt(created-indexSpan.Milliseconds(), 10))
		p.PExpire(ctx, key, indexSpan)
		return nil
	})
	if err != nil {
		return fmt.Errorf("the Redis task store could not list task %s: %w", t.ID, err)
	}
	return nil
}

// List returns a page of principal's tasks; see [fleet.TaskLister]. A
// cursor is the creation time and id of the last task of the page before;
// entries whose task expired are dropped from the index as they are met.
func (s *taskStore) List(ctx context.Context, principal, cursor string, limit int) ([]fleet.Task, string, error) {
	after, afterID, err := parseCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	limit = max(limit, 1)
	key := s.indexKey(principal)
	var out []fleet.Task
	min := "-inf"
	if cursor != "" {
		min = strconv.FormatInt(after, 10)
	}
	offset := int64(0)
	for {
		zctx, cancel := context.WithTimeout(ctx, s.f.timing.task)
		batch, err := s.f.client.ZRangeByScoreWithScores(zctx, key, &goredis.ZRangeBy{
			Min: min, Max: "+inf", Offset: offset, Count: int64(limit + 1)}).Result()
		cancel()
		if err != nil {
			return nil, "", fmt.Errorf("the Redis task store did not list: %w", err)
		}
		offset += int64(len(batch))
		for _, z := range batch {
			id, _ := z.Member.(string)
			score := int64(z.Score)
			if cursor != "" && score == after && id <= afterID {
				continue
			}
			if len(out) == limit {
				return out, formatCursor(out[len(out)-1]), nil
			}
			t, found, err := s.listed(ctx, id, principal)
			if err != nil {
				return nil, "", err
			}
			if !found {
				s.f.client.ZRem(context.WithoutCancel(ctx), key, id)
				continue
			}
			out = append(out, t)
		}
		if len(batch) < limit+1 {
			return out, "", nil
		}
	}
}

// listed reads task id of the index of principal: not found when it
// expired (or, never, another principal's).
func (s *taskStore) listed(ctx context.Context, id, principal string) (fleet.Task, bool, error) {
	reply, err := s.run(ctx, taskGet, id, principal)
	if err != nil {
		return fleet.Task{}, false, err
	}
	if reply.code != "ok" {
		return fleet.Task{}, false, nil
	}
	t, err := reply.task(id, 1)
	return t, err == nil, err
}

func formatCursor(t fleet.Task) string {
	return strconv.FormatInt(t.Created.UnixMilli(), 10) + "." + t.ID
}

// parseCursor reads a cursor formatCursor made; "" is the first page.
func parseCursor(cursor string) (int64, string, error) {
	if cursor == "" {
		return 0, "", nil
	}
	ms, id, ok := strings.Cut(cursor, ".")
	n, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil || n < 0 || id == "" || len(id) > 64 || strings.IndexFunc(id, notBase32) >= 0 {
		return 0, "", fleet.ErrBadCursor
	}
	return n, id, nil
}

func notBase32(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '2' && r <= '7') }

// The Redis store is a TaskLister.
var _ fleet.TaskLister = (*taskStore)(nil)
