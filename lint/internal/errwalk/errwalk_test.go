package errwalk_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/internal/errwalk"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), errwalk.Analyzer,
		"serving", "example.com/m/internal/errchain", "example.com/m/examples/demo")
}
