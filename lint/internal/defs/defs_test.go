package defs_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
)

// TestContractFacts checks the facts on the contracts a package exports.
func TestContractFacts(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, defs.Analyzer, "contractlib", "contractlib/errs")
}
