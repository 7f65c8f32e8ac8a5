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
type sink struct {
	issues  []Issue
	dropped int
	keep    int // -1 keeps everything
	// n counts the issues added, kept or not: the weight of a walk in
	// the count that stops loops (see walker.descend).
	n       int
	stopped bool // a loop stopped early below
}

func newSink(keep int) *sink {
	return &sink{keep: keep}
}

func (s *sink) add(is Issue) {
	s.n++
	s.issues = append(s.issues, is)
	if s.keep >= 0 && len(s.issues) >= 4*max(s.keep, 1) {
		s.trim()
	}
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
	return fmt.Sprintf("expected one of %s, received %s", showList(want), show(got))
}

// showList shows the first ten values of want, comma-separated.
func showList(want []any) string {
	const maxShown = 10
	vals := make([]string, 0, min(len(want), maxShown+1))
	for i, w := range want {
		if i == maxShown {
			vals = append(vals, "…")
			break
		}
		vals = append(vals, show(w))
	}
	return strings.Join(vals, ", ")
}

func requiredMessage(name string) string {
	return fmt.Sprintf("missing required property %q", name)
}

func unrecognizedMessage(key string) string {
	return fmt.Sprintf("unrecognized key %q", key)
}
