package raises_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/internal/raises"
)

func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), raises.Analyzer, "a", "b", "c")
}
