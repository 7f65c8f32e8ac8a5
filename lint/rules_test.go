package lint_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/lint"
)

// TestREADMEListsEveryRule keeps the README's rule table and the rules in
// step: a row per rule, with its level.
func TestREADMEListsEveryRule(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, r := range lint.Rules {
		row := fmt.Sprintf("| `%s` | %s | %s | %s |", r.ID, r.Level, r.Catches, r.Fix)
		if !strings.Contains(readme, row) {
			t.Errorf("README lacks the row\n%s", row)
		}
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
