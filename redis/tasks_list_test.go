package redis

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// A task is indexed under its principal, in a key of the principal's own
// hash slot that expires when no task has joined it for indexSpan; an
// index entry whose task expired is dropped when List meets it.
func TestTaskIndexKey(t *testing.T) {
	m := startRedis(t)
	s := newReplica(t, m.Addr()).Tasks()
	ctx := context.Background()
	k := fleet.Task{ID: rand.Text(), Tool: "slow", Principal: "p1", Status: fleet.TaskWorking, TTL: time.Second, PollInterval: time.Second}
	if _, err := s.Create(ctx, k); err != nil {
		t.Fatal(err)
	}
	key := "mcpcore:weather:tasks-of:{p1}"
	if members, err := m.ZMembers(key); err != nil || len(members) != 1 || members[0] != k.ID {
		t.Fatalf("index %s = %v, %v", key, members, err)
	}
	if ttl := m.TTL(key); ttl != indexSpan {
		t.Errorf("the index's TTL is %s, want %s", ttl, indexSpan)
	}
	m.FastForward(2 * time.Second)
	tasks, next, err := s.(fleet.TaskLister).List(ctx, "p1", "", 10)
	if err != nil || len(tasks) != 0 || next != "" {
		t.Fatalf("List after the TTL: %v %q %v", tasks, next, err)
	}
	if members, _ := m.ZMembers(key); len(members) != 0 {
		t.Errorf("the expired task stays indexed: %v", members)
	}
}
