package mcpcore

import (
	"strconv"
	"strings"
	"time"
)

// DefaultRepeatWindow is how long, after the first failure record of a
// kind (see repeatKey), the repeats of each of its records are counted
// rather than logged, and its distinct messages bounded (see
// internal/repeats), unless [ServerOptions.RepeatWindow] says otherwise.
const DefaultRepeatWindow = 10 * time.Second

// repeatKey names a kind of failure, in words that the summary of its
// other messages shows: the definition, the code, the reason and, for a
// panic, the place it happened ("tool:search code -32002 reason no_match").
// Within a kind, each distinct message gets its record (see
// internal/repeats); two kinds whose names ran together would only share
// that bound.
func repeatKey(kind, name string, code int, reason, panicSite string) string {
	// One allocation: this runs on every failed call.
	var b strings.Builder
	var digits [20]byte
	b.Grow(len(kind) + len(name) + len(reason) + len(panicSite) + 48)
	b.WriteString(kind)
	b.WriteByte(':')
	b.WriteString(name)
	b.WriteString(" code ")
	b.Write(strconv.AppendInt(digits[:0], int64(code), 10))
	if reason != "" {
		b.WriteString(" reason ")
		b.WriteString(reason)
	}
	if panicSite != "" {
		b.WriteString(" panic at ")
		b.WriteString(panicSite)
	}
	return b.String()
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
