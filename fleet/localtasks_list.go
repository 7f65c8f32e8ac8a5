package fleet

import (
	"context"
	"sort"
	"strconv"
)

// listed is one entry of a principal's index in a [LocalTasks]: a task's
// id and its creation number, by which the index is ordered.
type listed struct {
	seq uint64
	id  string
}

// index adds r, just stored, to its principal's index. s.mu is held.
func (s *LocalTasks) index(r *localTask) {
	s.seq++
	r.seq = s.seq
	if s.byPrincipal == nil {
		s.byPrincipal = map[string]*principalIndex{}
	}
	ix := s.byPrincipal[r.t.Principal]
	if ix == nil {
		ix = &principalIndex{}
		s.byPrincipal[r.t.Principal] = ix
	}
	ix.entries = append(ix.entries, listed{r.seq, r.t.ID})
	ix.live++
}

// unindex notes that r left the store. Entries are dropped lazily: an
// index is compacted when most of it is dead, so that dropping costs
// amortised constant time. s.mu is held.
func (s *LocalTasks) unindex(r *localTask) {
	ix := s.byPrincipal[r.t.Principal]
	if ix == nil {
		return
	}
	ix.live--
	if ix.live == 0 {
		delete(s.byPrincipal, r.t.Principal)
		return
	}
	if len(ix.entries) > 2*ix.live+16 {
		kept := ix.entries[:0]
		for _, e := range ix.entries {
			if t := s.tasks[e.id]; t != nil && t.seq == e.seq {
				kept = append(kept, e)
			}
		}
		clear(ix.entries[len(kept):])
		ix.entries = kept
	}
}

// A principalIndex is a principal's tasks in creation order, dead entries
// included until a compaction; live counts the others.
type principalIndex struct {
	entries []listed
	live    int
}

// List returns a page of principal's tasks; see [TaskLister]. A cursor is
// the creation number of the last task of the page before.
func (s *LocalTasks) List(_ context.Context, principal, cursor string, limit int) ([]Task, string, error) {
	var after uint64
	if cursor != "" {
		n, err := strconv.ParseUint(cursor, 10, 64)
		if err != nil || n == 0 {
			return nil, "", ErrBadCursor
		}
		after = n
	}
	limit = max(limit, 1)
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if after > s.seq {
		return nil, "", ErrBadCursor
	}
	ix := s.byPrincipal[principal]
	if ix == nil {
		return nil, "", nil
	}
	entries := ix.entries
	i := sort.Search(len(entries), func(i int) bool { return entries[i].seq > after })
	var out []Task
	for ; i < len(entries) && len(out) < limit; i++ {
		e := entries[i]
		r := s.tasks[e.id]
		if r == nil || r.seq != e.seq {
			continue
		}
		if r = s.lookup(e.id, now); r == nil {
			// Expired: lookup removed it, and unindex may have compacted
			// the index under this loop.
			entries = ix.entries
			i = sort.Search(len(entries), func(j int) bool { return entries[j].seq > e.seq }) - 1
			continue
		}
		out = append(out, r.copy())
	}
	if len(out) == limit && i < len(entries) {
		return out, strconv.FormatUint(entries[i-1].seq, 10), nil
	}
	return out, "", nil
}

// LocalTasks is a TaskLister.
var _ TaskLister = (*LocalTasks)(nil)
