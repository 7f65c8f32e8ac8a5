// Package review is mcplint's review corpus (issue 19, "mcplint on real
// servers"): a server written the way users write them,
// lint/testdata/realserver, which mcplint must pass clean, and a catalog
// of mistakes users make, each planted alone in a copy of it, with the rule
// expected to report it. Its test runs mcplint on the clean server and on
// every mistake, and prints what each rule caught as a table.
//
// A mistake that today's mcplint does not catch (or, for a negative case,
// reports) is marked KnownMiss: the test shows it in the table without
// failing, so that the catalog records the analyzers' blind spots until
// they are mended. Flip the mark when a rule starts catching it.
package review

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// An Edit replaces the one occurrence of Old in File with New.
type Edit struct {
	// File is the file's path in the module, slash-separated.
	File string
	// Old must occur exactly once in File, so that an edit of the server
	// that moves it fails loudly instead of planting nothing.
	Old, New string
}

// A Mistake is one planted mistake: edits that, applied together to the
// clean server, make the mistake, and what mcplint should say of it.
type Mistake struct {
	// ID names the mistake, as the test's subtest.
	ID string
	// Mistake says in one line what the user got wrong.
	Mistake string
	// Edits plant it.
	Edits []Edit
	// Rules are the rules of which any one reporting it counts as a
	// catch; none for a negative case, where the right answer is no
	// finding (or one worded "if …", for a finding that depends on a
	// path the analysis cannot decide).
	Rules []string
	// At is the file where the finding is expected; the first edit's file
	// when empty.
	At string
	// KnownMiss says that today's mcplint does not meet the expectation:
	// it misses the mistake, reports it elsewhere or by another rule, or
	// reports a negative case.
	KnownMiss bool
}

// Where returns the file where the finding is expected.
func (m Mistake) Where() string {
	if m.At != "" {
		return m.At
	}
	return m.Edits[0].File
}

// Expected returns the expectation in words, for the table.
func (m Mistake) Expected() string {
	if len(m.Rules) == 0 {
		return "none expected"
	}
	return strings.Join(m.Rules, " or ") + " at " + m.Where()
}

// Apply plants m in the copy of the server at dir.
func (m Mistake) Apply(dir string) error {
	for _, e := range m.Edits {
		name := filepath.Join(dir, filepath.FromSlash(e.File))
		b, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("%s: %v", m.ID, err)
		}
		if n := strings.Count(string(b), e.Old); n != 1 {
			return fmt.Errorf("%s: %s holds the text to replace %d times, want once: %q", m.ID, e.File, n, e.Old)
		}
		if err := os.WriteFile(name, []byte(strings.Replace(string(b), e.Old, e.New, 1)), 0o644); err != nil {
			return fmt.Errorf("%s: %v", m.ID, err)
		}
	}
	return nil
}
