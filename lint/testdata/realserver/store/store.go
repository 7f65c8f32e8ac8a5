// Package store keeps the user's shelf: the catalog records they saved,
// with their notes and tags. The tools see it through the Shelf interface,
// so that a deployment can put it in a database and the tests in memory.
package store

import (
	"context"
	"errors"
	"time"
)

// The store's sentinel errors, compared with errors.Is.
var (
	// ErrNoRow says that the shelf holds no entry for the record.
	ErrNoRow = errors.New("store: no such row")
	// ErrStale says that an update was based on a version of the entry
	// that is no longer the current one.
	ErrStale = errors.New("store: stale version")
)

// An Entry is one saved record.
type Entry struct {
	RecordID string    `json:"recordId"`
	Title    string    `json:"title"`
	Note     string    `json:"note,omitempty"`
	Tags     []string  `json:"tags,omitempty"`
	Saved    time.Time `json:"saved"`
	// Version counts the entry's updates; Put refuses an entry whose
	// Version is not the stored one.
	Version int `json:"version"`
}

// A Shelf stores entries.
type Shelf interface {
	// Get returns the entry of a record, or an error wrapping ErrNoRow.
	Get(ctx context.Context, recordID string) (Entry, error)
	// Put stores e, created with Version 0, or updated from the stored
	// Version (an error wrapping ErrStale otherwise); it returns the entry
	// as stored.
	Put(ctx context.Context, e Entry) (Entry, error)
	// List returns the entries with a tag, or every entry for tag "".
	List(ctx context.Context, tag string) ([]Entry, error)
}
