package conformance_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/conformance"
)

// TestCrossPackageContracts checks definitions whose contracts are
// variables and helpers of another package.
func TestCrossPackageContracts(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.RunWithSuggestedFixes(t, testdata, conformance.Analyzer, "contractuse")
}
