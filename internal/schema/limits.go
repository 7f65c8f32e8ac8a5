package schema

import (
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxIssues is the most issues a validation lists. A value can be wrong in
// as many ways as it has elements, and a client gains nothing from a
// million-line list that the server spent a gigabyte building; the first
// hundred show the pattern. The rest are counted in [Result.Omitted].
const MaxIssues = 100

// MaxDepth is the deepest nesting of arrays and objects a value may have.
// Beyond it a value fails with a single issue, unvalidated: the validator
// copies the path of every failure it nests through, so its cost grows with
// the square of the depth (a 100 KB value 5,000 levels deep took 400 MB).
// The stdio transport refuses messages nested deeper than this anyway.
const MaxDepth = 1000

// Bounds on the text of a Result, so that no input makes it large: a
// message can quote a value (an unrecognized key, a received enum value)
// and a path holds the keys of the input.
const (
	// maxMessageRunes bounds Issue.Message.
	maxMessageRunes = 256
	// maxSegmentRunes bounds each string segment of Issue.Path.
	maxSegmentRunes = 64
	// maxPathSegments bounds the length of Issue.Path: the middle of a
	// longer path is replaced by one "…" segment.
	maxPathSegments = 64
	// maxListBytes bounds the JSON encoding of Result.Issues: issues that
	// would go beyond it are counted in Result.Omitted instead. The first
	// issue is always listed; its own size is bounded by the limits above.
	maxListBytes = 32 << 10
	// maxSummaryPathRunes bounds the path in a summary.
	maxSummaryPathRunes = 128
)

// Result is the outcome of a validation: the first issues, in order, and
// how many more there are. Its size is bounded whatever the input: at most
// MaxIssues issues, messages of at most 256 characters, path segments of at
// most 64 characters (longer ones end in "…"), paths of at most 64 segments
// (a longer one keeps its two ends around a "…" segment), and 32 KiB of
// JSON for the whole list.
type Result struct {
	// Issues are the first issues, sorted by path, then keyword, then
	// message; nil when the value is valid.
	Issues []Issue
	// Omitted counts the issues found but left out of Issues.
	Omitted int
	// Stopped reports that validation stopped early, once it was certain
	// of MaxIssues issues: the value has at least len(Issues)+Omitted
	// issues, and possibly more. The loops over array items and object
	// properties visit them in the order of the list, so Issues are still
	// the first ones of the full list; this holds exactly for schemas
	// inferred from Go types. (With a subschema applied twice to the same
	// value, as allOf can, or an anyOf whose alternatives both look inside
	// it, the count that decides the stop can run ahead of the list, and a
	// later issue can take the place of an earlier one.)
	Stopped bool
}

// Valid reports whether the value had no issue.
func (r Result) Valid() bool { return len(r.Issues) == 0 }

// Summary is the one-line message of a validation failure, in the format
// of [Summary]: `<first issue message>[ at <path>][ (+N more)]`, where N
// counts every other issue found, listed or omitted; when validation
// stopped early it says `(+N or more)`. It is `Validation failed` for a
// valid result. Its length is bounded (under 500 characters).
func (r Result) Summary() string {
	if len(r.Issues) == 0 {
		return "Validation failed"
	}
	return summarize(r.Issues[0], len(r.Issues)-1+r.Omitted, r.Stopped)
}

// summarize is `<message>[ at <path>][ (+more more)]`, or `(+more or
// more)` when orMore is set.
func summarize(first Issue, more int, orMore bool) string {
	var b strings.Builder
	b.WriteString(cut(first.Message, maxMessageRunes))
	if len(first.Path) > 0 {
		var p strings.Builder
		for i, seg := range first.Path {
			if i > 0 {
				p.WriteByte('.')
			}
			fmt.Fprint(&p, seg)
			if p.Len() > 4*maxSummaryPathRunes { // enough to cut from
				break
			}
		}
		b.WriteString(" at ")
		b.WriteString(cut(p.String(), maxSummaryPathRunes))
	}
	switch {
	case orMore && more > 0:
		fmt.Fprintf(&b, " (+%d or more)", more)
	case orMore:
		b.WriteString(" (possibly more)")
	case more > 0:
		fmt.Fprintf(&b, " (+%d more)", more)
	}
	return b.String()
}

// shape turns sorted issues into a Result: it keeps the first MaxIssues
// that fit in maxListBytes, bounds their text, and counts the others,
// dropped included, in Omitted.
func shape(issues []Issue, dropped int, stopped bool) Result {
	if len(issues) > MaxIssues {
		dropped += len(issues) - MaxIssues
		issues = issues[:MaxIssues]
	}
	size := 2 // the brackets of the list
	for i := range issues {
		is := bounded(issues[i])
		size += jsonLen(is) + 1
		if i > 0 && size > maxListBytes {
			dropped += len(issues) - i
			issues = issues[:i]
			break
		}
		issues[i] = is
	}
	return Result{Issues: issues, Omitted: dropped, Stopped: stopped}
}

// bounded returns is with its message and path cut to their bounds. The
// path is copied only when it changes.
func bounded(is Issue) Issue {
	is.Message = cut(is.Message, maxMessageRunes)
	path := is.Path
	if len(path) > maxPathSegments {
		head := maxPathSegments / 2
		tail := maxPathSegments - head - 1
		path = append(append(append(make([]any, 0, maxPathSegments), path[:head]...), "…"), path[len(path)-tail:]...)
	}
	copied := len(path) != len(is.Path)
	for i, seg := range path {
		s, ok := seg.(string)
		if !ok || len(s) <= maxSegmentRunes {
			continue
		}
		if c := cut(s, maxSegmentRunes); c != s {
			if !copied {
				path, copied = slices.Clone(path), true
			}
			path[i] = c
		}
	}
	is.Path = path
	return is
}

// jsonLen is the length of the JSON encoding of is, computed without
// encoding it.
func jsonLen(is Issue) int {
	n := len(`{"path":[],"message":,"keyword":}`) + jsonStringLen(is.Message) + jsonStringLen(is.Keyword)
	for i, seg := range is.Path {
		if i > 0 {
			n++
		}
		switch seg := seg.(type) {
		case string:
			n += jsonStringLen(seg)
		case int:
			n += len(strconv.Itoa(seg))
		default:
			b, _ := json.Marshal(seg)
			n += len(b)
		}
	}
	return n
}

// jsonStringLen is the length of s encoded by encoding/json: quotes,
// two-byte escapes, six-byte \u escapes (control characters, the
// HTML-sensitive <, > and &, U+2028, U+2029, and each invalid byte, which
// becomes \ufffd).
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			n += 6
		} else {
			n += size
		}
		i += size
	}
	return n
}

// cut returns s cut to at most n runes, the last of them an ellipsis when
// something was cut. It never splits a rune; invalid UTF-8 counts one rune
// per byte, as json.Marshal replaces each such byte.
func cut(s string, n int) string {
	if len(s) <= n { // n bytes hold at most n runes
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			if utf8.RuneCountInString(s[i:]) <= 1 {
				return s
			}
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// jsonDepth returns the nesting depth of arrays and objects in x (0 for a
// scalar), and whether x is already a decoded JSON value. It stops counting
// past MaxDepth, which is all the caller needs to know, but walks the whole
// value to answer the second question.
func jsonDepth(x any, depth int) (int, bool) {
	switch x := x.(type) {
	case nil, bool, string, float64, json.Number:
		return depth, true
	case map[string]any:
		return deepestOf(maps.Values(x), depth)
	case []any:
		return deepestOf(slices.Values(x), depth)
	}
	return depth, false
}

// deepestOf is jsonDepth for the members of an object or array at depth.
func deepestOf(members iter.Seq[any], depth int) (int, bool) {
	deepest := depth + 1
	for e := range members {
		d, ok := jsonDepth(e, min(depth+1, MaxDepth+1))
		if !ok {
			return deepest, false
		}
		deepest = max(deepest, d)
	}
	return deepest, true
}

// rawDepth returns the deepest nesting of arrays and objects in data, JSON
// text (valid or not: a syntax error is left to the decoder).
func rawDepth(data []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
