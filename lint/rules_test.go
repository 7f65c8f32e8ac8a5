package lint_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/lint"
)

// TestDocsListEveryRule keeps the rule table of docs/linting.md and the
// rules in step: a row per rule, with its level, in the order of
// lint.Rules, and under ## Rules no row for a rule that does not exist.
func TestDocsListEveryRule(t *testing.T) {
	b, err := os.ReadFile("../docs/linting.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	last := -1
	for _, r := range lint.Rules {
		row := fmt.Sprintf("| `%s` | %s | %s | %s |", r.ID, r.Level, r.Catches, r.Fix)
		at := strings.Index(doc, row)
		switch {
		case at < 0:
			t.Errorf("docs/linting.md lacks the row\n%s", row)
		case at < last:
			t.Errorf("docs/linting.md lists %s out of the order of lint.Rules", r.ID)
		default:
			last = at
		}
	}
	// Every row of the table under "## Rules" is a rule's.
	_, table, ok := strings.Cut(doc, "\n## Rules\n")
	if !ok {
		t.Fatal("docs/linting.md has no ## Rules section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	rows := 0
	for line := range strings.SplitSeq(table, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows++
		}
	}
	if rows != len(lint.Rules) {
		t.Errorf("docs/linting.md has %d rule rows; lint.Rules has %d rules", rows, len(lint.Rules))
	}
}

func TestLevelOf(t *testing.T) {
	for msg, want := range map[string]lint.Level{
		"error-contract-reason-unique: reason \"x\" is declared twice": lint.Error,
		"error-contract-empty: tool t declares an empty Errors":        lint.Warning,
		"something else entirely":                                      lint.Error,
	} {
		if got := lint.LevelOf(msg); got != want {
			t.Errorf("LevelOf(%q) = %v, want %v", msg, got, want)
		}
	}
}
