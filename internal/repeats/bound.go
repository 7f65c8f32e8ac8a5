package repeats

import (
	"fmt"
	"log/slog"
	"strconv"
	"unicode/utf8"
)

// MaxTextBytes bounds a text a client chose (a header's value, a method's
// name, an error that quotes its input) in a log record: a client can
// trigger records at will, and collapsing their repeats does not stop one
// record from holding megabytes.
const MaxTextBytes = 256

// MaxFailureBytes bounds the texts of a failure's record (its message, the
// error beneath it, a panic's value): they say what went wrong, so they
// keep more than a header's value, but a handler's message that quotes
// its input must not make a record of megabytes.
const MaxFailureBytes = 4 << 10

// Bounded is s as a log record holds it: whole when it is at most
// MaxTextBytes long, else its first MaxTextBytes bytes (cut on a
// character's boundary) followed by how long it was:
// "https://aaaa…aaa… (59392 bytes)".
func Bounded(s string) string { return Cut(s, MaxTextBytes) }

// Cut is s bounded as Bounded bounds it, to n bytes.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// BoundedAttr is a with its texts bounded (see Bounded), in groups too: a
// string, and any other value whose text (fmt's %v) is longer than
// MaxTextBytes, which becomes that text, bounded. Numbers, booleans, times
// and short values are kept as they are.
func BoundedAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		v = slog.StringValue(Bounded(v.String()))
	case slog.KindAny:
		if text := fmt.Sprint(v.Any()); len(text) > MaxTextBytes {
			v = slog.StringValue(Bounded(text))
		}
	case slog.KindGroup:
		group := make([]slog.Attr, len(v.Group()))
		for i, g := range v.Group() {
			group[i] = BoundedAttr(g)
		}
		v = slog.GroupValue(group...)
	}
	a.Value = v
	return a
}
