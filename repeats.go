package mcpcore

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// DefaultRepeatWindow is how long the failure records of one kind of failure
// are collapsed after the first, unless [ServerOptions.RepeatWindow] says
// otherwise.
const DefaultRepeatWindow = 10 * time.Second

// maxRepeatKeys bounds the kinds of failure tracked at once, so that the
// tracking itself costs bounded memory; a failure beyond it is logged as
// usual.
const maxRepeatKeys = 1024

// repeats collapses the failure records of a flood into one record with a
// count. A client can trigger failures at will, and each writes a record
// (a panic's is about 4 KB), so without it the ERROR log is the client's to
// fill. The first failure of a kind (definition, code, reason or panic site)
// is logged at once; the ones that follow within the window are counted, and
// when it closes one record says how many there were.
type repeats struct {
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

func newRepeats(window time.Duration, log *slog.Logger) *repeats {
	return &repeats{window: window, log: log, open: make(map[string]*repeat)}
}

// admit reports whether a failure of the given kind should be logged now;
// when it returns false, the failure is counted in the summary of its window.
// level, msg and attrs describe the kind for that summary.
func (r *repeats) admit(key string, level slog.Level, msg string, attrs []slog.Attr) bool {
	if r == nil || r.window <= 0 {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if w, ok := r.open[key]; ok {
		w.count++
		return false
	}
	if len(r.open) >= maxRepeatKeys {
		return true
	}
	w := &repeat{level: level, msg: msg, attrs: attrs, started: time.Now()}
	w.timer = time.AfterFunc(r.window, func() { r.close(key) })
	r.open[key] = w
	return true
}

// close ends a window and writes its summary, if anything was collapsed.
func (r *repeats) close(key string) {
	r.mu.Lock()
	w, ok := r.open[key]
	delete(r.open, key)
	r.mu.Unlock()
	if ok {
		r.summarise(w)
	}
}

// flush ends every open window now, so that no count is lost when the
// server stops.
func (r *repeats) flush() {
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

func (r *repeats) summarise(w *repeat) {
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

// repeatKey names a kind of failure: the definition, the code, the reason
// and, for a panic, the place it happened.
func repeatKey(kind, name string, code int, reason, panicSite string) string {
	return strings.Join([]string{kind, name, fmt.Sprint(code), reason, panicSite}, "\x00")
}

// panicSite returns the file:line a panic was raised at, read from its stack
// (the frame just below the runtime's panic function), or "" when the stack
// has no such frame.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic(") {
			continue
		}
		// panic(...) / \truntime/panic.go:NNN / caller(...) / \tfile:line +0x..
		if i+3 < len(lines) {
			site := strings.TrimSpace(lines[i+3])
			if j := strings.LastIndex(site, " +0x"); j >= 0 {
				site = site[:j]
			}
			return site
		}
	}
	return ""
}
