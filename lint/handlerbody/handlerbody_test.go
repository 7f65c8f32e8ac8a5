package handlerbody_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/handlerbody"
)

func TestAnalyzer(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.RunWithSuggestedFixes(t, testdata, handlerbody.Analyzer, "handlerbody")
}

// TestServices checks the errors services build, in a package of their
// own and in the handler's.
func TestServices(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, handlerbody.Analyzer, "svcbody", "svcbody/ncbi")
}

// TestUpstreamText checks a service that formats what the upstream said,
// read by helpers of another package and of its own, into its messages.
func TestUpstreamText(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, handlerbody.Analyzer, "vault/remote")
}
