package upstream

import "errors"

// The service's sentinel errors. They are plain Go errors, compared with
// errors.Is, so that callers in this package can branch on them before
// they are turned into *mcperr.Error values for the tools.
var (
	// ErrQueueFull is returned by the request queue when no slot frees up
	// within the queue's wait.
	ErrQueueFull = errors.New("upstream: request queue is full")
	// ErrNoRecord is returned for an upstream 404 on a record's path.
	ErrNoRecord = errors.New("upstream: no such record")
	// ErrEmptyCitation is returned when the catalog formats a citation as
	// an empty string, which it does for styles it half supports.
	ErrEmptyCitation = errors.New("upstream: empty citation")
)
