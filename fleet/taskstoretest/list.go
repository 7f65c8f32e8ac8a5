package taskstoretest

import (
	"reflect"
	"slices"
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
			l, ok := lister(s)
			if !ok {
				t.Skipf("the store (%T) is not a fleet.TaskLister", s)
			}
			tc.test(t, l)
		})
	}
}

// lister is s as a TaskLister: itself, or, for a store under test that
// wraps one in a struct to move its clock (as Clocked does), the one it
// wraps, the wrapper's clock kept.
func lister(s fleet.TaskStore) (fleet.TaskLister, bool) {
	if l, ok := s.(fleet.TaskLister); ok {
		return l, true
	}
	v := reflect.ValueOf(s)
	if v.Kind() != reflect.Struct {
		return nil, false
	}
	for i := range v.NumField() {
		if f := v.Field(i); f.CanInterface() {
			if l, ok := f.Interface().(fleet.TaskLister); ok {
				a, _ := s.(Advancer)
				return listerOf{l, a}, true
			}
		}
	}
	return nil, false
}

// listerOf is a wrapped store's lister, with the wrapper's clock.
type listerOf struct {
	fleet.TaskLister
	clock Advancer
}

// Advance moves the wrapper's clock; with none, the test of expiry skips
// (see advancer) by failing the type assertion, as it would on the store.
func (l listerOf) Advance(d time.Duration) { l.clock.Advance(d) }

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
	clock, _ := s.(Advancer)
	var want []string
	for i := 0; i < 7; i++ {
		k := newTask(s)
		if i == 3 {
			// An ended task is listed as long as it is readable.
			k.Status, k.Outcome = fleet.TaskCompleted, result
		}
		create(t, s, k)
		want = append(want, k.ID)
		if clock != nil {
			clock.Advance(time.Millisecond)
		}
	}
	for _, limit := range []int{1, 3, 7, 50} {
		got, pages := listAll(t, s, alice, limit)
		if clock != nil {
			if !slices.Equal(got, want) {
				t.Fatalf("limit %d: listed %v, want %v (creation order)", limit, got, want)
			}
		} else if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			// Within one millisecond the order is the store's.
			t.Fatalf("limit %d: listed %v, want %v in any order", limit, got, want)
		}
		if limit == 3 && pages < 3 {
			t.Errorf("limit 3 over 7 tasks: %d pages", pages)
		}
	}
	tasks, _, err := s.List(ctx, alice, "", 7)
	if err != nil || len(tasks) != 7 {
		t.Fatalf("List: %v, %v", tasks, err)
	}
	for i, k := range tasks {
		same(t, "a listed task", k, get(t, s, k.ID))
		if i > 0 && k.Created.Before(tasks[i-1].Created) {
			t.Errorf("listed out of creation time: %v after %v", k.Created, tasks[i-1].Created)
		}
	}
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
	if lo, ok := s.(listerOf); ok && lo.clock == nil {
		t.Skip("the store's clock cannot be moved")
	}
	clock := advancer(t, s)
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
