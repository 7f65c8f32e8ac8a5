package schema

import (
	"fmt"
	"slices"
	"strings"
)

// A sink receives the issues of a walk. Its memory is bounded: past four
// times keep issues it sorts them and keeps the first keep, counting the
// others in dropped; those can never be among the first keep of the whole
// list, so a million unknown keys cost a hundred issues of memory.
// Trimming at four times keep keeps the sorting cost per issue logarithmic.
//
// An alternative of anyOf or oneOf is walked into a sink of its own, so
// that the union can judge it (see walker.unionFailed): typeOnly records
// whether every issue so far is a failed "type" of the value the union
// looks at, and want and got the types it named.
type sink struct {
	issues  []Issue
	dropped int
	keep    int // -1 keeps everything
	// n counts the issues added, kept or not: the weight of a walk in
	// the count that stops loops (see walker.descend).
	n       int
	stopped bool // a loop stopped early below

	depth    int // the path length of the value a union looks at
	mixed    bool
	want     []string
	got      string
	typeSeen bool
}

func newSink(keep, depth int) *sink {
	return &sink{keep: keep, depth: depth}
}

// typeOnly reports whether the sink holds only failed "type" issues at its
// depth: a union discards such an alternative (a nullable object is
// anyOf[null, object]; a string sent there is one type error, not two).
func (s *sink) typeOnly() bool { return s.n > 0 && !s.mixed && s.typeSeen }

func (s *sink) add(is Issue) {
	s.n++
	s.mixed = true
	s.append(is)
}

// addType adds the direct failure of "type" at path.
func (s *sink) addType(path []any, want []string, got string) {
	s.n++
	if len(path) == s.depth {
		s.want = append(s.want, want...)
		s.got = got
		s.typeSeen = true
	} else {
		s.mixed = true
	}
	s.append(Issue{Path: path, Message: typeMessage(want, got), Keyword: "type"})
}

func (s *sink) append(is Issue) {
	s.issues = append(s.issues, is)
	if s.keep >= 0 && len(s.issues) >= 4*max(s.keep, 1) {
		s.trim()
	}
}

// merge moves the issues of an alternative into s. They come from a union:
// an enclosing union does not take them for a type failure.
func (s *sink) merge(from *sink) {
	for _, is := range from.issues {
		s.append(is)
	}
	s.n += from.n
	s.dropped += from.dropped
	s.stopped = s.stopped || from.stopped
	s.mixed = true
}

func (s *sink) trim() {
	s.issues = sortIssues(s.issues)
	if len(s.issues) > s.keep {
		s.dropped += len(s.issues) - s.keep
		clear(s.issues[s.keep:])
		s.issues = s.issues[:s.keep]
	}
}

// result is the Result of a finished walk.
func (s *sink) result() Result {
	if len(s.issues) == 0 { // not expected: every failure has an issue
		return single("value does not match the schema", "")
	}
	return shape(sortIssues(s.issues), s.dropped, s.stopped)
}

// sortIssues sorts issues in place and removes duplicates, which appear
// when two parts of a schema check the same thing.
func sortIssues(issues []Issue) []Issue {
	slices.SortFunc(issues, compareIssues)
	return slices.CompactFunc(issues, func(a, b Issue) bool { return compareIssues(a, b) == 0 })
}

// Messages. Each is a short sentence for a model; a value of the input is
// quoted only through show, which cuts it to 40 characters, and the whole
// message is cut to maxMessageRunes by shape.

func enumMessage(want []any, got any) string {
	const maxShown = 10
	vals := make([]string, 0, min(len(want), maxShown+1))
	for i, w := range want {
		if i == maxShown {
			vals = append(vals, "…")
			break
		}
		vals = append(vals, show(w))
	}
	return fmt.Sprintf("expected one of %s, received %s", strings.Join(vals, ", "), show(got))
}

func requiredMessage(name string) string {
	return fmt.Sprintf("missing required property %q", name)
}

func unrecognizedMessage(key string) string {
	return fmt.Sprintf("unrecognized key %q", key)
}
