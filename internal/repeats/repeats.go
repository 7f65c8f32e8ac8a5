// Package repeats collapses floods of log records: a client can trigger
// failures and refusals at will, and each writes a record (a panic's is
// about 4 KB), so without it the log is the client's to fill. The server's
// failure records and the HTTP surface's refusals share one Collapser.
package repeats

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// MaxKeys bounds the kinds tracked at once, so that the
// tracking itself costs bounded memory; a failure beyond it is logged as
// usual.
const MaxKeys = 1024

// A Collapser collapses the records of a flood into one record with a
// count. The first record of a kind is logged at once; the ones that follow
// within the window are counted, and when it closes one record says how
// many there were.
type Collapser struct {
	window time.Duration
	log    *slog.Logger

	mu   sync.Mutex
	open map[string]*repeat
}

// A repeat is an open window of one kind of failure.
type repeat struct {
	level   slog.Level
	msg     string
	attrs   []slog.Attr
	count   int
	started time.Time
	timer   *time.Timer
}

// New returns a Collapser whose windows last window, writing its summaries
// to log. A window of zero or less collapses nothing.
func New(window time.Duration, log *slog.Logger) *Collapser {
	return &Collapser{window: window, log: log, open: make(map[string]*repeat)}
}

// Admit reports whether a record of the given kind should be logged now;
// when it returns false, the record is counted in the summary of its
// window. level, msg and attrs describe the kind for that summary. A nil
// Collapser admits everything.
func (r *Collapser) Admit(key string, level slog.Level, msg string, attrs []slog.Attr) bool {
	if r == nil || r.window <= 0 {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if w, ok := r.open[key]; ok {
		w.count++
		return false
	}
	if len(r.open) >= MaxKeys {
		return true
	}
	w := &repeat{level: level, msg: msg, attrs: attrs, started: time.Now()}
	w.timer = time.AfterFunc(r.window, func() { r.close(key) })
	r.open[key] = w
	return true
}

// close ends a window and writes its summary, if anything was collapsed.
func (r *Collapser) close(key string) {
	r.mu.Lock()
	w, ok := r.open[key]
	delete(r.open, key)
	r.mu.Unlock()
	if ok {
		r.summarise(w)
	}
}

// Flush ends every open window now, so that no count is lost when the
// server stops.
func (r *Collapser) Flush() {
	if r == nil {
		return
	}
	r.mu.Lock()
	open := r.open
	r.open = make(map[string]*repeat)
	r.mu.Unlock()
	for _, w := range open {
		w.timer.Stop()
		r.summarise(w)
	}
}

func (r *Collapser) summarise(w *repeat) {
	if w.count == 0 {
		return
	}
	elapsed := time.Since(w.started).Round(time.Millisecond)
	attrs := append(w.attrs[:len(w.attrs):len(w.attrs)], slog.Int("repeated", w.count))
	times := "times"
	if w.count == 1 {
		times = "time"
	}
	r.log.LogAttrs(context.Background(), w.level,
		fmt.Sprintf("%s (repeated %d more %s in %s)", w.msg, w.count, times, elapsed), attrs...)
}
