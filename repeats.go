package mcpcore

import (
	"fmt"
	"strings"
	"time"
)

// DefaultRepeatWindow is how long the failure records of one kind of failure
// are collapsed after the first, unless [ServerOptions.RepeatWindow] says
// otherwise.
const DefaultRepeatWindow = 10 * time.Second

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
