package repeats

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// captured is a slog handler that keeps every record it is given.
type captured struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (c *captured) Enabled(context.Context, slog.Level) bool { return true }
func (c *captured) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *captured) WithGroup(string) slog.Handler            { return c }
func (c *captured) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recs = append(c.recs, r.Clone())
	return nil
}

func (c *captured) records() []slog.Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]slog.Record(nil), c.recs...)
}

// attr returns the value of r's attribute key, or nil.
func attr(r slog.Record, key string) any {
	var v any
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == key {
			v = a.Value.Any()
			return false
		}
		return true
	})
	return v
}

// untimed drops the duration from a summary's message.
func untimed(msg string) string {
	return regexp.MustCompile(` in [0-9.]+[a-zµ]+\)$`).ReplaceAllString(msg, ")")
}

// collapser returns a Collapser whose windows outlast the test, so that
// only Flush writes summaries, and what it logs to.
func collapser() (*Collapser, *captured) {
	c := &captured{}
	return New(time.Hour, slog.New(c)), c
}

// offer offers the collapser a record, logging it to the same handler when
// admitted, as its callers do.
func offer(r *Collapser, c *captured, key string, level slog.Level, msg string, attrs ...slog.Attr) bool {
	if !r.Admit(key, level, msg, attrs) {
		return false
	}
	slog.New(c).LogAttrs(context.Background(), level, msg, attrs...)
	return true
}

var reason = slog.String("reason", "no_match")

func TestDistinctMessagesOfAKindEachGetTheirRecord(t *testing.T) {
	r, c := collapser()
	const key = "tool:fetch code -32002 reason no_match"
	for _, msg := range []string{"None of 0 PMIDs returned data", "No item 9", "None of 0 PMIDs returned data", "No item 9"} {
		offer(r, c, key, slog.LevelError, msg, reason)
	}
	r.Flush()
	var got []string
	for _, rec := range c.records() {
		got = append(got, fmt.Sprintf("%s repeated=%v", untimed(rec.Message), attr(rec, "repeated")))
	}
	want := []string{
		"None of 0 PMIDs returned data repeated=<nil>",
		"No item 9 repeated=<nil>",
		"None of 0 PMIDs returned data (repeated 1 more time) repeated=1",
		"No item 9 (repeated 1 more time) repeated=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestIdenticalRecordsCollapseIntoOneSummary(t *testing.T) {
	r, c := collapser()
	admitted := 0
	for range 1000 {
		if offer(r, c, "tool:fetch code -32002 reason no_match", slog.LevelError, "No item 9", reason) {
			admitted++
		}
	}
	if admitted != 1 {
		t.Errorf("%d of 1000 identical records admitted, want 1", admitted)
	}
	if n := len(c.records()); n != 1 {
		t.Fatalf("%d records before the window closed, want 1", n)
	}
	r.Flush()
	recs := c.records()
	if len(recs) != 2 {
		t.Fatalf("%d records, want the record and its summary", len(recs))
	}
	s := recs[1]
	if s.Level != slog.LevelError || attr(s, "repeated") != int64(999) || attr(s, "reason") != "no_match" ||
		!strings.HasPrefix(s.Message, "No item 9 (repeated 999 more times in ") {
		t.Errorf("summary: %v %q repeated=%v reason=%v", s.Level, s.Message, attr(s, "repeated"), attr(s, "reason"))
	}
}

// TestAttributesTellRecordsApart: records with one message but different
// attributes (an invalid_token refusal's why) are distinct; equal ones,
// even of values == cannot compare, are repeats.
func TestAttributesTellRecordsApart(t *testing.T) {
	r, c := collapser()
	const key, msg = "HTTP refusal invalid_token", "mcpcore: HTTP request refused: invalid bearer token"
	claim := slog.String("why", "the token lacks a required claim (exp, iss or aud)")
	expired := slog.String("why", "the token has expired")
	scopes := func() slog.Attr { return slog.Any("missing", []string{"a", "b"}) }
	for _, attrs := range [][]slog.Attr{{claim}, {expired}, {claim}, {expired}, {expired}, {scopes()}, {scopes()}} {
		offer(r, c, key, slog.LevelWarn, msg, attrs...)
	}
	r.Flush()
	var got []string
	for _, rec := range c.records() {
		got = append(got, fmt.Sprintf("why=%v missing=%v repeated=%v", attr(rec, "why"), attr(rec, "missing"), attr(rec, "repeated")))
	}
	want := []string{
		"why=the token lacks a required claim (exp, iss or aud) missing=<nil> repeated=<nil>",
		"why=the token has expired missing=<nil> repeated=<nil>",
		"why=<nil> missing=[a b] repeated=<nil>",
		"why=the token lacks a required claim (exp, iss or aud) missing=<nil> repeated=1",
		"why=the token has expired missing=<nil> repeated=2",
		"why=<nil> missing=[a b] repeated=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDistinctMessagesAreBounded: a client that makes a tool fail with a
// new message each time ("No item 1", "No item 2", …) gets MaxMessages of
// them logged and the rest counted in one summary, whose level is the
// highest of what it counts and whose attributes are the ones they shared.
func TestDistinctMessagesAreBounded(t *testing.T) {
	r, c := collapser()
	const key, calls = "tool:fetch code -32002 reason no_match", 100_000
	for i := range calls {
		level := slog.LevelInfo
		if i == calls/2 {
			level = slog.LevelError
		}
		offer(r, c, key, level, fmt.Sprintf("No item %d", i), reason, slog.Int("attempt", i%2))
	}
	r.Flush()
	recs := c.records()
	if len(recs) != MaxMessages+1 {
		t.Fatalf("%d records for %d distinct messages, want %d", len(recs), calls, MaxMessages+1)
	}
	for i, rec := range recs[:MaxMessages] {
		if want := fmt.Sprintf("No item %d", i); rec.Message != want {
			t.Errorf("record %d: %q, want %q", i, rec.Message, want)
		}
	}
	s := recs[MaxMessages]
	want := fmt.Sprintf("mcpcore: %d more records of %s with other messages than the %d logged (in ", calls-MaxMessages, key, MaxMessages)
	if !strings.HasPrefix(s.Message, want) || s.Level != slog.LevelError ||
		attr(s, "omitted") != int64(calls-MaxMessages) || attr(s, "reason") != "no_match" || attr(s, "attempt") != nil {
		t.Errorf("summary: %v %q omitted=%v reason=%v attempt=%v, want %q at ERROR, reason only",
			s.Level, s.Message, attr(s, "omitted"), attr(s, "reason"), attr(s, "attempt"), want)
	}
}

// TestKindsAreBounded: past MaxKinds kinds at once, records are counted in
// one overall summary instead of logged.
func TestKindsAreBounded(t *testing.T) {
	r, c := collapser()
	const kinds = 100_000
	for i := range kinds {
		level := slog.LevelInfo
		if i == kinds-1 {
			level = slog.LevelWarn
		}
		offer(r, c, fmt.Sprintf("tool:t%d code -32603", i), level, "An internal error occurred")
	}
	if n := len(c.records()); n != MaxKinds {
		t.Errorf("%d records before the windows closed, want %d", n, MaxKinds)
	}
	r.Flush()
	recs := c.records()
	if len(recs) != MaxKinds+1 {
		t.Fatalf("%d records in all, want %d", len(recs), MaxKinds+1)
	}
	s := recs[MaxKinds]
	want := fmt.Sprintf("mcpcore: %d more records not logged: more than %d kinds of record at once (in ", kinds-MaxKinds, MaxKinds)
	if !strings.HasPrefix(s.Message, want) || s.Level != slog.LevelWarn || attr(s, "omitted") != int64(kinds-MaxKinds) {
		t.Errorf("summary: %v %q omitted=%v, want %q at WARN", s.Level, s.Message, attr(s, "omitted"), want)
	}
}

// TestFlushWritesEveryPendingCount: each kind's repeats, its other
// messages and the records beyond the bound on kinds, at once, after which
// a record opens a new window and is logged again.
func TestFlushWritesEveryPendingCount(t *testing.T) {
	r, c := collapser()
	for i := range MaxKinds {
		key := fmt.Sprintf("kind %d", i)
		offer(r, c, key, slog.LevelError, "first")
		if i == 0 {
			offer(r, c, key, slog.LevelError, "first")
			for j := range MaxMessages + 2 {
				offer(r, c, key, slog.LevelError, fmt.Sprint("other ", j))
			}
		}
	}
	offer(r, c, "one kind too many", slog.LevelError, "beyond")
	before := len(c.records())
	r.Flush()
	var got []string
	for _, rec := range c.records()[before:] {
		got = append(got, fmt.Sprintf("repeated=%v omitted=%v", attr(rec, "repeated"), attr(rec, "omitted")))
	}
	if want := []string{"repeated=1 omitted=<nil>", "repeated=<nil> omitted=3", "repeated=<nil> omitted=1"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Flush wrote:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !offer(r, c, "kind 0", slog.LevelError, "first") || !offer(r, c, "one kind too many", slog.LevelError, "beyond") {
		t.Error("a record after Flush was not admitted")
	}
	r.Flush()
}

// TestAWindowCloses: when its window closes, a kind's summary is written
// without a Flush, and its next record is logged again.
func TestAWindowCloses(t *testing.T) {
	c := &captured{}
	r := New(time.Millisecond, slog.New(c))
	for range 3 {
		offer(r, c, "k", slog.LevelError, "again")
	}
	for deadline := time.Now().Add(10 * time.Second); len(c.records()) < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the window's summary was never written")
		}
	}
	if recs := c.records(); len(recs) != 2 || attr(recs[1], "repeated") != int64(2) {
		t.Fatalf("records %v, want the record and its summary", recs)
	}
	// The window ended before its summary was written.
	if !offer(r, c, "k", slog.LevelError, "again") {
		t.Error("the record after the window closed was not admitted")
	}
	r.Flush()
}

// TestNothingIsLost: whatever the timing of windows closing, of Flush and
// of concurrent records, each record is logged or counted exactly once.
func TestNothingIsLost(t *testing.T) {
	c := &captured{}
	r := New(time.Millisecond, slog.New(c))
	const workers, each = 8, 2000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				offer(r, c, fmt.Sprint("kind ", i%3), slog.LevelError, fmt.Sprint("message ", (w+i)%(MaxMessages+5)))
				if w == 0 && i == each/2 {
					r.Flush()
				}
			}
		})
	}
	wg.Wait()
	r.Flush()
	n := int64(0)
	for _, rec := range c.records() {
		switch {
		case attr(rec, "repeated") != nil:
			n += attr(rec, "repeated").(int64)
		case attr(rec, "omitted") != nil:
			n += attr(rec, "omitted").(int64)
		default:
			n++
		}
	}
	if n != workers*each {
		t.Errorf("%d records logged or counted, want %d", n, workers*each)
	}
}

func TestNothingCollapsedWithoutAWindow(t *testing.T) {
	var none *Collapser
	off := New(-1, slog.New(slog.DiscardHandler))
	for range 3 {
		if !none.Admit("k", slog.LevelError, "m", nil) || !off.Admit("k", slog.LevelError, "m", nil) {
			t.Fatal("a record was collapsed")
		}
	}
	none.Flush()
	off.Flush()
}

// TestAttrsAreCopied: a caller may reuse its slice once Admit returns, as
// the server's failure records do; the summary keeps what was admitted.
func TestAttrsAreCopied(t *testing.T) {
	r, c := collapser()
	attrs := []slog.Attr{reason}
	offer(r, c, "k", slog.LevelError, "m", attrs...)
	offer(r, c, "k", slog.LevelError, "m", attrs...)
	attrs[0] = slog.String("reason", "changed")
	r.Flush()
	if recs := c.records(); len(recs) != 2 || attr(recs[1], "reason") != "no_match" {
		t.Errorf("summary reason %v, want no_match", attr(recs[1], "reason"))
	}
}

// BenchmarkAdmit is the cost on the call path of a failure that repeats,
// and of one of a flood of distinct messages.
func BenchmarkAdmit(b *testing.B) {
	r := New(time.Hour, slog.New(slog.DiscardHandler))
	defer r.Flush()
	attrs := []slog.Attr{slog.String("operation", "tool:fetch"), slog.Int("code", -32002), slog.String("codeName", "NotFound"), reason}
	msgs := make([]string, 1000)
	for i := range msgs {
		msgs[i] = fmt.Sprintf("Error in tool:fetch: No item %d", i)
	}
	b.Run("repeat", func(b *testing.B) {
		for b.Loop() {
			r.Admit("tool:fetch code -32002 reason no_match", slog.LevelError, msgs[0], attrs)
		}
	})
	b.Run("distinct", func(b *testing.B) {
		i := 0
		for b.Loop() {
			r.Admit("tool:other code -32002 reason no_match", slog.LevelError, msgs[i%len(msgs)], attrs)
			i++
		}
	})
}

// TestBoundedTexts: a long text is cut on a character's boundary, with its
// length noted; a short one is kept whole.
func TestBoundedTexts(t *testing.T) {
	t.Parallel()
	if got := Bounded("short"); got != "short" {
		t.Errorf("Bounded(short) = %q", got)
	}
	long := strings.Repeat("é", 30000) // 60,000 bytes
	got := Bounded(long)
	if !strings.HasSuffix(got, "… (60000 bytes)") || len(got) > MaxTextBytes+32 || !utf8.ValidString(got) {
		t.Errorf("Bounded(60,000 bytes) = %q (%d bytes)", got, len(got))
	}
	// Attributes: texts bounded wherever they are; numbers and short
	// values kept as they are.
	a := BoundedAttr(slog.Group("g", slog.String("s", long), slog.Any("err", errors.New(long)),
		slog.Int("n", 7), slog.Any("short", []string{"a", "b"})))
	want := `g=[s=` + got + ` err=` + got + ` n=7 short=[a b]]`
	if a.String() != want {
		t.Errorf("BoundedAttr = %.400s", a.String())
	}
	if v := BoundedAttr(slog.Any("short", []string{"a"})).Value; v.Kind() != slog.KindAny {
		t.Errorf("a short value became %v", v.Kind())
	}
}
