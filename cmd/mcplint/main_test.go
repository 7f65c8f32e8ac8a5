package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/cmd/mcplint/internal/driver"
	"github.com/seed417024ea/mcpcore/internal/testmodule"
	"github.com/seed417024ea/mcpcore/lint"
)

// TestEveryRuleFires runs the whole suite on testdata/demo, a module with
// one violation of each rule (the undeclared code raised two calls below a
// handler, in another package, among them): every rule must fire, and
// mcplint must fail.
func TestEveryRuleFires(t *testing.T) {
	t.Chdir(demoModule(t))
	var out, errs bytes.Buffer
	tool := driver.Tool{Analyzers: lint.Analyzers, Rules: lint.Rules, Level: lint.LevelOf}
	code := tool.Run([]string{"./..."}, &out, &errs)
	if code != driver.ExitFindings {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, driver.ExitFindings, errs.String())
	}
	for _, r := range lint.Rules {
		if !strings.Contains(out.String(), ": "+r.ID+": ") {
			t.Errorf("rule %s did not fire", r.ID)
		}
	}
	for _, want := range []string{
		"error-contract-conformance: tool fetch_article can return RateLimited through ncbi.Fetch (raised in httpx.Get)",
		`error-contract-prefer-fail: tool fetch_article builds a NotFound error that its contract declares ("no_match") without ctx.Fail`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", out.String())
	}
}

// demoModule copies testdata/demo to a temporary directory, as a module
// that requires this repository as it is (see testmodule.Copy).
func demoModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return testmodule.Copy(t, "testdata/demo", "example.com/demo", root)
}
