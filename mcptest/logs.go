package mcptest

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/seed417024ea/mcpcore"
)

// Logs holds the log records of a server (or a handler run by a
// [Harness]) during a test, and shows each in the test's log as it is
// written. Records are JSON objects, as the server writes them with
// MCP_LOG_FORMAT=json: "level", "msg" and the attributes.
type Logs struct {
	t      testing.TB
	mu     sync.Mutex
	buf    bytes.Buffer
	closed bool // the test ended (or may not log): t.Log must not be called
	limit  int  // when > 0, the most bytes kept: the oldest records go first
}

// newLogs returns the logs of t, shown in the test's log until it ends.
func newLogs(t testing.TB) *Logs {
	l := &Logs{t: t}
	t.Cleanup(func() {
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
	})
	return l
}

// Write receives the records of the log handler, one JSON line each.
func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if l.limit > 0 && l.buf.Len() > l.limit {
		keep := l.buf.Bytes()[l.buf.Len()-l.limit/2:]
		if i := bytes.IndexByte(keep, '\n'); i >= 0 {
			keep = keep[i+1:]
		}
		l.buf = *bytes.NewBuffer(bytes.Clone(keep))
	}
	if !l.closed {
		l.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// logger is a debug-level logger writing JSON records to l.
func (l *Logs) logger() *slog.Logger {
	return slog.New(mcpcore.NewLogHandler(l, &mcpcore.LogOptions{Level: slog.LevelDebug, JSON: true}))
}

// Records returns every record written so far.
func (l *Logs) Records() []map[string]any {
	l.mu.Lock()
	data := bytes.Clone(l.buf.Bytes())
	l.mu.Unlock()
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var r map[string]any
		if err := dec.Decode(&r); err != nil {
			break
		}
		out = append(out, r)
	}
	return out
}

// Find returns the records whose message contains msg.
func (l *Logs) Find(msg string) []map[string]any {
	var out []map[string]any
	for _, r := range l.Records() {
		if m, _ := r["msg"].(string); strings.Contains(m, msg) {
			out = append(out, r)
		}
	}
	return out
}

// reset forgets the records so far.
func (l *Logs) reset() {
	l.mu.Lock()
	l.buf.Reset()
	l.mu.Unlock()
}

// String returns every record, one JSON object per line.
func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
