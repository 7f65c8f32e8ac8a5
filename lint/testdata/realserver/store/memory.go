package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Memory is a Shelf in memory, for a single-process server and for tests.
type Memory struct {
	mu   sync.Mutex
	rows map[string]Entry
	now  func() time.Time
}

// NewMemory returns an empty shelf.
func NewMemory() *Memory {
	return &Memory{rows: map[string]Entry{}, now: time.Now}
}

// Get implements Shelf.
func (m *Memory) Get(ctx context.Context, recordID string) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.rows[recordID]
	if !ok {
		return Entry{}, fmt.Errorf("get %s: %w", recordID, ErrNoRow)
	}
	e.Tags = slices.Clone(e.Tags)
	return e, nil
}

// Put implements Shelf.
func (m *Memory) Put(ctx context.Context, e Entry) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.rows[e.RecordID]
	switch {
	case !ok && e.Version != 0, ok && old.Version != e.Version:
		return Entry{}, fmt.Errorf("put %s at version %d: %w", e.RecordID, e.Version, ErrStale)
	case !ok:
		e.Saved = m.now()
	}
	e.Version++
	e.Tags = slices.Clone(e.Tags)
	m.rows[e.RecordID] = e
	return e, nil
}

// List implements Shelf.
func (m *Memory) List(ctx context.Context, tag string) ([]Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var es []Entry
	for _, e := range m.rows {
		if tag == "" || slices.Contains(e.Tags, tag) {
			e.Tags = slices.Clone(e.Tags)
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.RecordID, b.RecordID) })
	return es, nil
}
