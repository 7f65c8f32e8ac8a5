package taskstoretest

import (
	"context"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// runList runs the tests of a [fleet.TaskLister]; Run calls it for a store
// that is one.
func runList(t *testing.T, newStore func(t *testing.T) fleet.TaskStore) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, fleet.TaskLister)
	}{
		{"ListPagesInCreationOrder", testListPages},
		{"ListOnlyThePrincipals", testListOnlyThePrincipals},
		{"ListRefusesForeignCursor", testListRefusesBadCursor},
		{"ListSkipsExpired", testListSkipsExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			l, ok := s.(fleet.TaskLister)
			if c, clocked := s.(Clocked); clocked {
				l, ok = listerOf{c.TaskStore, c}, isLister(c.TaskStore)
			}
			if !ok {
				t.Skipf("the store (%T) is not a fleet.TaskLister", s)
			}
			tc.test(t, l)
		})
	}
}

// listerOf is a Clocked store's lister, its clock kept.
type listerOf struct {
	fleet.TaskStore
	Advancer
}

func (l listerOf) List(ctx context.Context, principal, cursor string, limit int) ([]fleet.Task, string, error) {
	return l.TaskStore.(fleet.TaskLister).List(ctx, principal, cursor, limit)
}

func isLister(s fleet.TaskStore) bool {
	_, ok := s.(fleet.TaskLister)
	return ok
}

// listAll pages through principal's tasks, limit at a time, and returns
// their ids and the number of pages.
func listAll(t *testing.T, s fleet.TaskLister, principal string, limit int) (ids []string, pages int) {
	t.Helper()
	cursor := ""
	for {
		tasks, next, err := s.List(ctx, principal, cursor, limit)
		if err != nil {
			t.Fatalf("List(%q, %q, %d): %v", principal, cursor, limit, err)
		}
		if len(tasks) > limit {
			t.Fatalf("List gave %d tasks for a limit of %d", len(tasks), limit)
		}
		pages++
		for _, k := range tasks {
			if k.Principal != principal {
				t.Fatalf("List(%q) gave a task of %q", principal, k.Principal)
			}
			ids = append(ids, k.ID)
		}
		if next == "" {
			return ids, pages
		}
		if pages > 1000 {
			t.Fatal("List never ends")
		}
		cursor = next
	}
}

func testListPages(t *testing.T, s fleet.TaskLister) {
	var want []string
	for i := 0; i < 7; i++ {
		k := newTask(s)
		if i == 3 {
			// An ended task is listed as long as it is readable.
			k.Status, k.Outcome = fleet.TaskCompleted, result
		}
		create(t, s, k)
		want = append(want, k.ID)
	}
	for _, limit := range []int{1, 3, 7, 50} {
		got, pages := listAll(t, s, alice, limit)
		if len(got) != len(want) {
			t.Fatalf("limit %d: listed %v, want %v", limit, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("limit %d: listed %v, want %v (creation order)", limit, got, want)
			}
		}
		if limit == 3 && pages < 3 {
			t.Errorf("limit 3 over 7 tasks: %d pages", pages)
		}
	}
	tasks, _, err := s.List(ctx, alice, "", 1)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("List: %v, %v", tasks, err)
	}
	same(t, "a listed task", tasks[0], get(t, s, want[0]))
}

func testListOnlyThePrincipals(t *testing.T, s fleet.TaskLister) {
	mine := newTask(s)
	create(t, s, mine)
	theirs := newTask(s)
	theirs.Principal = mallory
	create(t, s, theirs)
	if got, _ := listAll(t, s, alice, 10); len(got) != 1 || got[0] != mine.ID {
		t.Errorf("alice lists %v, want only %s", got, mine.ID)
	}
	if got, _ := listAll(t, s, mallory, 10); len(got) != 1 || got[0] != theirs.ID {
		t.Errorf("mallory lists %v, want only %s", got, theirs.ID)
	}
	if got, _ := listAll(t, s, "someone else", 10); len(got) != 0 {
		t.Errorf("a principal without tasks lists %v", got)
	}
}

func testListRefusesBadCursor(t *testing.T, s fleet.TaskLister) {
	for i := 0; i < 3; i++ {
		create(t, s, newTask(s))
	}
	_, next, err := s.List(ctx, alice, "", 1)
	if err != nil || next == "" {
		t.Fatalf("List: next %q, %v", next, err)
	}
	for _, bad := range []string{"not a cursor", "-1", "99999999999999999999999", next + "x"} {
		_, _, err := s.List(ctx, alice, bad, 1)
		is(t, "List from cursor "+bad, err, fleet.ErrBadCursor)
	}
}

func testListSkipsExpired(t *testing.T, s fleet.TaskLister) {
	clock := advancer(t, s.(fleet.TaskStore))
	short := newTask(s)
	short.TTL = 10 * time.Second
	create(t, s, short)
	long := newTask(s)
	create(t, s, long)
	clock.Advance(short.TTL)
	if got, _ := listAll(t, s, alice, 1); len(got) != 1 || got[0] != long.ID {
		t.Errorf("after the first TTL alice lists %v, want only %s", got, long.ID)
	}
}
