package fleet

import (
	"context"
	"errors"
)

// A TaskLister is a [TaskStore] that also lists a principal's tasks, for
// the tasks/list method of MCP 2025-11-25's experimental task utility.
// [LocalTasks] and package redis's store are ones.
type TaskLister interface {
	TaskStore
	// List returns, in the order they were created (to the millisecond:
	// within one, in an order of the store's), up to limit live tasks
	// of principal that come after cursor ("" for the first page), and the
	// cursor of the next page, "" when there is none. A cursor is opaque
	// and belongs to the principal it was given to; one the store could
	// not have issued is [ErrBadCursor]. The tasks are as [TaskStore.Get]
	// returns them, OwnerGone unset. It costs time linear in limit and in
	// the expired tasks it passes over, not in the principal's other tasks.
	List(ctx context.Context, principal, cursor string, limit int) (tasks []Task, next string, err error)
}

// ErrBadCursor: a cursor given to [TaskLister.List] is not one it issued.
var ErrBadCursor = errors.New("bad task list cursor")
