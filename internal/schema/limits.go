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
// Beyond it a value fails with a single issue, unvalidated: the walk
// recurses once per level and each issue copies its path, so depth is a
// cost of its own (the validator library used before took 400 MB for a
// 100 KB value 5,000 levels deep). The stdio transport refuses messages
// nested deeper than this anyway.
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

// Summary is the one-line message of a validation failure, listing its
// issues so that a client that reads only the message still learns every
// mistake (the same issues are in data.issues, as structured values):
//
//	expected string, received number
//	at authors[1].name: expected string, received number
//	3 issues: unrecognized key "extra"; missing required property "city"; at items[2]: expected integer, received string
//	250 issues: at ids[0]: expected string, received number; …; at ids[9]: expected string, received number; and 240 more
//
// One issue is its message, located by `at <path>: ` unless it is at the
// root; several are counted, then listed, separated by "; ". A path is
// written as in JavaScript: `items[2].name`, with a name that is not an
// identifier quoted (`["first name"]`). A missing property is located at the
// object that lacks it, since its message names it. At most 10 issues are
// listed, within about 1,000 characters (the first is always listed); the
// rest are counted in `and N more`. When validation stopped early (see
// [Result.Stopped]) the counts say `N or more`. It is `Validation failed`
// for a valid result. Its length is bounded (under 1,100 characters).
func (r Result) Summary() string {
	return summarize(r.Issues, len(r.Issues)+r.Omitted, r.Stopped)
}

const (
	// maxSummaryIssues is the most issues a summary lists.
	maxSummaryIssues = 10
	// maxSummaryListRunes bounds the listed issues of a summary: an issue
	// that would take the list beyond it is counted instead, unless it is
	// the first.
	maxSummaryListRunes = 1000
)

// summarize is the summary of issues, the first of total issues (at least
// total, when orMore is set).
func summarize(issues []Issue, total int, orMore bool) string {
	if len(issues) == 0 {
		return "Validation failed"
	}
	total = max(total, len(issues))
	var b strings.Builder
	if total > 1 || orMore {
		if orMore {
			fmt.Fprintf(&b, "%d or more issues: ", total)
		} else {
			fmt.Fprintf(&b, "%d issues: ", total)
		}
	}
	listed, runes := 0, 0
	for _, is := range issues[:min(len(issues), maxSummaryIssues)] {
		line := describeIssue(is)
		n := utf8.RuneCountInString(line)
		if listed > 0 && runes+2+n > maxSummaryListRunes {
			break
		}
		if listed > 0 {
			b.WriteString("; ")
			runes += 2
		}
		b.WriteString(line)
		runes += n
		listed++
	}
	if rest := total - listed; rest > 0 {
		if orMore {
			fmt.Fprintf(&b, "; and %d or more", rest)
		} else {
			fmt.Fprintf(&b, "; and %d more", rest)
		}
	}
	return b.String()
}

// describeIssue is one issue of a summary: `[at <path>: ]<message>`. A
// missing property's path ends with its name, which its message already
// quotes: it is located at its parent instead.
func describeIssue(is Issue) string {
	msg := cut(is.Message, maxMessageRunes)
	path := is.Path
	if n := len(path); n > 0 {
		switch is.Keyword {
		case "required", "dependentRequired", "dependencies":
			if name, ok := path[n-1].(string); ok && strings.Contains(is.Message, strconv.Quote(name)) {
				path = path[:n-1]
			}
		}
	}
	if len(path) == 0 {
		return msg
	}
	return "at " + cutMiddle(pathString(path), maxSummaryPathRunes) + ": " + msg
}

// pathString writes a path as JavaScript would address it: `a.b[2].c`, a
// name that is not an identifier quoted in brackets (`["a b"]`). Its length
// is bounded by those of a bounded path: 64 segments of 64 runes.
func pathString(path []any) string {
	var p strings.Builder
	dot := false // whether a name needs a dot before it
	for i, seg := range path {
		switch seg := seg.(type) {
		case int:
			fmt.Fprintf(&p, "[%d]", seg)
		case string:
			switch {
			case seg == "…" && i > 0: // the middle of a long path, left out (see bounded)
				p.WriteString("…")
				dot = false
				continue
			case identifier(seg):
				if dot {
					p.WriteByte('.')
				}
				p.WriteString(seg)
			default:
				p.WriteString("[" + strconv.Quote(seg) + "]")
			}
		default:
			fmt.Fprintf(&p, "[%v]", seg)
		}
		dot = true
	}
	return p.String()
}

// cutMiddle returns s cut to at most n runes by replacing its middle with
// an ellipsis: both ends of a path say where it is.
func cutMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// identifier reports whether s is an ASCII JavaScript identifier, written
// after a dot in a path.
func identifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
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
		if c := s[i]; c < utf8.RuneSelf {
			n += int(asciiJSONLens[c])
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

// asciiJSONLens holds asciiJSONLen of each ASCII byte, which
// jsonStringLen reads for every byte of a message.
var asciiJSONLens = func() (lens [utf8.RuneSelf]uint8) {
	for c := range lens {
		lens[c] = uint8(asciiJSONLen(byte(c)))
	}
	return lens
}()

// asciiJSONLen is the length of c, an ASCII byte, in a string encoded by
// encoding/json.
func asciiJSONLen(c byte) int {
	switch {
	case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
		return 2
	case c < 0x20 || c == '<' || c == '>' || c == '&':
		return 6
	}
	return 1
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

// jsonShape returns the nesting depth of arrays and objects in x (0 for a
// scalar; counted no further than past MaxDepth, which is all the caller
// needs to know), its number of values, and whether x is already a
// decoded JSON value.
func jsonShape(x any) (depth, size int, ok bool) {
	return shapeOf(x, 0, &size)
}

// shapeOf is jsonShape for x at depth, adding its values to size.
func shapeOf(x any, depth int, size *int) (int, int, bool) {
	*size++
	switch x := x.(type) {
	case nil, bool, string, float64, json.Number:
		return depth, *size, true
	case map[string]any:
		return deepestOf(maps.Values(x), depth, size)
	case []any:
		return deepestOf(slices.Values(x), depth, size)
	}
	return depth, *size, false
}

// deepestOf is shapeOf for the members of an object or array at depth.
func deepestOf(members iter.Seq[any], depth int, size *int) (int, int, bool) {
	deepest := depth + 1
	for e := range members {
		d, _, ok := shapeOf(e, min(depth+1, MaxDepth+1), size)
		if !ok {
			return deepest, *size, false
		}
		deepest = max(deepest, d)
	}
	return deepest, *size, true
}

// rawShape returns the deepest nesting of arrays and objects in data, JSON
// text (valid or not: a syntax error is left to the decoder), and a bound
// on its number of values: each value but the first follows a comma or
// opens its container's list.
func rawShape(data []byte) (deepest, size int) {
	depth := 0
	size = 1
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
			size++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		case c == ',':
			size++
		}
	}
	return deepest, size
}
