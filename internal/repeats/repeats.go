// Package repeats collapses floods of log records: a client can trigger
// failures and refusals at will, and each writes a record (a panic's is
// about 4 KB), so without it the log is the client's to fill. The server's
// failure records and the HTTP surface's refusals share one Collapser.
//
// Records come in kinds, each named by a key: a failure's definition, code,
// reason and panic site, a refusal's kind. Two records of a kind are the
// same record when their levels, messages and attributes are equal; the
// caller passes only the attributes that tell records apart, never those of
// one request (its remote address, request id, duration). A kind's window
// opens with its first record and closes a window's length later. Within
// it:
//
//  1. The first of each distinct record is logged at once; its repeats are
//     counted, and when the window closes one summary says how many there
//     were: its message ends "(repeated N more times in D)", and its
//     attribute repeated is N.
//  2. At most [MaxMessages] distinct records of a kind are logged. The
//     kind's further records, whatever their messages, are counted in one
//     summary, "mcpcore: M more records of <key> with other messages than
//     the 10 logged (in D)", whose attribute omitted is M and whose other
//     attributes are those all of them shared.
//  3. At most [MaxKinds] kinds are tracked at once. Records of a kind beyond
//     them are not logged either: one overall summary counts them (its
//     attribute omitted), until windows close and make room.
//
// A summary is written at the level of the highest record it counts. So
// however many distinct messages clients make a server write (a tool that
// fails with "No item 1", "No item 2", …), a window of a kind logs at most
// 2 × MaxMessages + 1 records, at most MaxKinds windows are open at once,
// and what they keep (MaxMessages records each) is bounded the same way.
// [Collapser.Flush] writes the summaries of every open window at once, so
// that no count is lost when the server stops.
//
// What the callers pass: a failure record's attributes are its operation,
// code, code name and reason, all named by its key too, and the error
// beneath it (its type and text, its cause's, or the panic's value), so
// two failures of a kind are the same when their messages and errors are;
// its duration and stack are added to the record once admitted. A refusal's are
// why it was refused (why, status, missing scopes, origin, limits), not
// the request's remote address, path, declared size or the session count.
package repeats

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"time"
)

// MaxKinds bounds the kinds tracked at once, so that the tracking itself
// costs bounded memory; the records of a kind beyond it are counted in one
// overall summary.
const MaxKinds = 1024

// MaxMessages bounds the distinct records of one kind logged in a window;
// the kind's further records are counted in one summary.
const MaxMessages = 10

// A Collapser collapses the records of a flood into few records with
// counts, as the package documentation describes.
type Collapser struct {
	window time.Duration
	log    *slog.Logger

	mu      sync.Mutex
	kinds   map[string]*kind
	beyond  *overflow  // the records of kinds beyond MaxKinds, or nil
	closing int        // windows whose summaries a timer is writing
	closed  *sync.Cond // signalled when closing drops to 0, for Flush
}

// A kind is the open window of one kind of record.
type kind struct {
	key     string
	started time.Time
	timer   *time.Timer
	records []*record // the distinct records logged, at most MaxMessages
	others  *overflow // the records beyond them, or nil
}

// A record is a distinct record that was logged, and the count of its
// repeats since.
type record struct {
	level   slog.Level
	msg     string
	attrs   []slog.Attr
	started time.Time
	count   int
}

// An overflow counts the records that were not logged and that no logged
// record stands for.
type overflow struct {
	started time.Time
	timer   *time.Timer // for the overall summary only
	level   slog.Level
	shared  []slog.Attr // the attributes every record counted had
	count   int
}

// New returns a Collapser whose windows last window, writing its summaries
// to log. A window of zero or less collapses nothing.
func New(window time.Duration, log *slog.Logger) *Collapser {
	r := &Collapser{window: window, log: log, kinds: make(map[string]*kind)}
	r.closed = sync.NewCond(&r.mu)
	return r
}

// Admit reports whether a record should be logged now; when it returns
// false, the record is counted in a summary. key names the record's kind
// (and appears in the summary of the kind's other messages); level, msg and
// attrs are the record's, as its summary is to repeat them: records of a
// kind with equal levels, messages and attrs are repeats of one record.
// Admit keeps a copy of attrs. A nil Collapser admits everything.
func (r *Collapser) Admit(key string, level slog.Level, msg string, attrs []slog.Attr) bool {
	if r == nil || r.window <= 0 {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k, ok := r.kinds[key]
	if !ok {
		if len(r.kinds) >= MaxKinds {
			if r.beyond == nil {
				o := &overflow{started: time.Now()}
				o.timer = time.AfterFunc(r.window, func() { r.closeBeyond(o) })
				r.beyond = o
			}
			r.beyond.add(level, nil)
			return false
		}
		k = &kind{key: key, started: time.Now()}
		k.timer = time.AfterFunc(r.window, func() { r.close(k) })
		r.kinds[key] = k
	}
	for _, rec := range k.records {
		if rec.level == level && rec.msg == msg && sameAttrs(rec.attrs, attrs) {
			rec.count++
			return false
		}
	}
	if len(k.records) < MaxMessages {
		k.records = append(k.records, &record{level: level, msg: msg, attrs: slices.Clone(attrs), started: time.Now()})
		return true
	}
	if k.others == nil {
		k.others = &overflow{started: k.started}
	}
	k.others.add(level, attrs)
	return false
}

// add counts one more record of level and attrs.
func (o *overflow) add(level slog.Level, attrs []slog.Attr) {
	o.count++
	if o.count == 1 {
		o.level, o.shared = level, slices.Clone(attrs)
		return
	}
	o.level = max(o.level, level)
	if sameAttrs(o.shared, attrs) {
		return // the usual case, and the cheap one: nothing to drop
	}
	o.shared = slices.DeleteFunc(o.shared, func(a slog.Attr) bool {
		i := slices.IndexFunc(attrs, func(b slog.Attr) bool { return b.Key == a.Key })
		return i < 0 || !sameValue(a.Value, attrs[i].Value)
	})
}

// close ends the window of k, if it is still open, and writes its
// summaries. A timer that fires as Flush ends its window finds another
// window (or none) under its key, and leaves it.
func (r *Collapser) close(k *kind) {
	r.mu.Lock()
	if r.kinds[k.key] != k {
		r.mu.Unlock()
		return
	}
	delete(r.kinds, k.key)
	r.closing++
	r.mu.Unlock()
	defer r.closedOne()
	r.summarise(k)
}

// closedOne says a timer has written the summaries of its window.
func (r *Collapser) closedOne() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing--; r.closing == 0 {
		r.closed.Broadcast()
	}
}

// closeBeyond ends the window of the overall summary o, if it is still
// open, and writes it.
func (r *Collapser) closeBeyond(o *overflow) {
	r.mu.Lock()
	if r.beyond != o {
		r.mu.Unlock()
		return
	}
	r.beyond = nil
	r.closing++
	r.mu.Unlock()
	defer r.closedOne()
	r.summariseBeyond(o)
}

// Flush ends every open window now and writes its summaries, oldest first,
// so that no count is lost when the server stops; it returns once the
// summaries that timers were writing meanwhile are written too.
func (r *Collapser) Flush() {
	if r == nil {
		return
	}
	r.mu.Lock()
	kinds, beyond := r.kinds, r.beyond
	r.kinds, r.beyond = make(map[string]*kind), nil
	r.mu.Unlock()
	open := make([]*kind, 0, len(kinds))
	for _, k := range kinds {
		k.timer.Stop()
		open = append(open, k)
	}
	slices.SortFunc(open, func(a, b *kind) int { return a.started.Compare(b.started) })
	for _, k := range open {
		r.summarise(k)
	}
	if beyond != nil {
		beyond.timer.Stop()
		r.summariseBeyond(beyond)
	}
	r.mu.Lock()
	for r.closing > 0 {
		r.closed.Wait()
	}
	r.mu.Unlock()
}

// summarise writes the summaries of k's window: one per record that was
// repeated, and one of the records with other messages.
func (r *Collapser) summarise(k *kind) {
	for _, rec := range k.records {
		if rec.count == 0 {
			continue
		}
		attrs := append(rec.attrs[:len(rec.attrs):len(rec.attrs)], slog.Int("repeated", rec.count))
		r.log.LogAttrs(context.Background(), rec.level,
			fmt.Sprintf("%s (repeated %d more %s in %s)", rec.msg, rec.count, plural(rec.count, "time"), since(rec.started)), attrs...)
	}
	if o := k.others; o != nil {
		attrs := append(o.shared, slog.Int("omitted", o.count))
		r.log.LogAttrs(context.Background(), o.level,
			fmt.Sprintf("mcpcore: %d more %s of %s with other messages than the %d logged (in %s)",
				o.count, plural(o.count, "record"), k.key, MaxMessages, since(o.started)), attrs...)
	}
}

// summariseBeyond writes the overall summary o.
func (r *Collapser) summariseBeyond(o *overflow) {
	r.log.LogAttrs(context.Background(), o.level,
		fmt.Sprintf("mcpcore: %d more %s not logged: more than %d kinds of record at once (in %s)",
			o.count, plural(o.count, "record"), MaxKinds, since(o.started)), slog.Int("omitted", o.count))
}

// sameAttrs reports whether a and b are the same attributes in the same
// order.
func sameAttrs(a, b []slog.Attr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || !sameValue(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// sameValue is slog.Value.Equal without its panic on values that == cannot
// compare (a []string, say), and without resolving a LogValuer: no code of
// the caller's runs under the Collapser's lock.
func sameValue(a, b slog.Value) bool {
	k := a.Kind()
	if k != b.Kind() {
		return false
	}
	switch k {
	case slog.KindString: // the usual attribute, compared without Equal's second look at the kinds
		return a.String() == b.String()
	case slog.KindAny, slog.KindLogValuer:
		return reflect.DeepEqual(a.Any(), b.Any())
	case slog.KindGroup:
		return sameAttrs(a.Group(), b.Group())
	}
	return a.Equal(b)
}

func since(t time.Time) time.Duration {
	return time.Since(t).Round(time.Millisecond)
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
