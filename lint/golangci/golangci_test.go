package golangci_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/testmodule"
)

// customGCLEnv names a golangci-lint binary with mcplint built in, as
// scripts/golangci-custom.sh builds it (make golangci does both). Without
// it the test is skipped: building golangci-lint takes minutes and
// downloads hundreds of megabytes, too much for every go test run.
const customGCLEnv = "MCPCORE_CUSTOM_GCL"

// TestCustomGCL runs the custom golangci-lint, with the example
// configuration that enables mcplint alone, on examples/articles, which is
// clean, and on testdata/planted, which has one mistake. Each run's output
// is logged (go test -v shows it).
func TestCustomGCL(t *testing.T) {
	bin := os.Getenv(customGCLEnv)
	if bin == "" {
		t.Skipf("%s is not set; make golangci builds the binary and runs this test", customGCLEnv)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(root, ".golangci.example.yml")
	t.Setenv("GOLANGCI_LINT_CACHE", t.TempDir()) // no result of an earlier run

	t.Run("clean", func(t *testing.T) {
		// examples is a module of its own, beside the core.
		out, code := golangci(t, bin, filepath.Join(root, "examples"), config, "./articles/...")
		// A package that does not load is level=error, and exit 7.
		if code != 0 || !strings.Contains(out, "0 issues.") || strings.Contains(out, "level=error") {
			t.Errorf("on examples/articles: exit %d, want 0, \"0 issues.\" and no error", code)
		}
	})
	t.Run("planted", func(t *testing.T) {
		out, code := golangci(t, bin, plantedModule(t, root), config, "./...")
		if code != 1 {
			t.Errorf("on testdata/planted: exit %d, want 1 (issues found)", code)
		}
		// The mistake makes two findings: the factory call, and so an
		// entry nothing raises. golangci-lint puts the analyzer's name
		// before the message, and the linter's after it.
		for _, want := range []string{
			`planted.go:33:20: mcpconformance: error-contract-prefer-fail: tool fetch_item builds a NotFound error that its contract declares ("no_match") without ctx.Fail;`,
			`planted.go:27:33: mcpconformance: error-contract-unthrown: tool fetch_item declares reason "no_match",`,
			"(mcplint)",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("on testdata/planted: the output lacks %s", want)
			}
		}
	})
}

// golangci runs bin run on patterns from dir and returns its output, both
// streams, and its exit status.
func golangci(t *testing.T, bin, dir, config string, patterns ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run", "--config=" + config}, patterns...)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v", bin, err)
	}
	t.Logf("%s (in %s):\n%s", strings.Join(cmd.Args, " "), dir, out.String())
	return out.String(), cmd.ProcessState.ExitCode()
}

// plantedModule copies testdata/planted to a temporary directory, as a
// module that requires this repository as it is (see testmodule.Copy).
func plantedModule(t *testing.T, root string) string {
	t.Helper()
	return testmodule.Copy(t, "testdata/planted", "example.com/planted", root)
}
