package conformance_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/conformance"
)

// TestClosuresAndReasonHelpers checks a port whose service keeps its
// request closures in variables, fields and helpers' results, and stamps
// its reasons through a helper's parameter.
func TestClosuresAndReasonHelpers(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.RunWithSuggestedFixes(t, testdata, conformance.Analyzer, "vault")
}
