package lint_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint"
)

// fixedBy names, by analyzer, the testdata packages whose .golden files are
// that analyzer's fixes applied, as its own test checks them with
// analysistest.RunWithSuggestedFixes.
var fixedBy = map[string][]string{
	"mcpcontract":    {"contractcheck"},
	"mcpconformance": {"conformance", "contractsvc"},
	"mcphandlerbody": {"handlerbody"},
}

// TestFixesLintClean checks that a fix leaves code mcplint has nothing new
// to say about: every analyzer is run on the testdata as it is and on a copy
// with each .go file replaced by its .golden (the fixes applied), and, in
// each fixed file, the findings of the fixed code must be among those that
// stood before and were not fixed. A fix that comes back as its own rule,
// or as another (prefer-fail's ctx.Fail without ctx.RecoveryFor makes a
// recovery-unforwarded), fails it.
//
// Findings are compared as counts per file and rule, since a fix moves
// lines.
func TestFixesLintClean(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	fixedTree := goldenTree(t, testdata)

	var pkgs []string
	for _, ps := range fixedBy {
		pkgs = append(pkgs, ps...)
	}
	type key struct{ file, rule string }
	before, fixed, after := map[key]int{}, map[key]int{}, map[key]int{}
	goldenFiles := map[string]bool{}
	for _, a := range lint.Analyzers {
		owns := map[string]bool{}
		for _, p := range fixedBy[a.Name] {
			owns[p] = true
		}
		for _, run := range []struct {
			dir    string
			counts map[key]int
		}{{testdata, before}, {fixedTree, after}} {
			// The // want comments are the analyzers' own tests' business,
			// and the fixed code no longer meets them: a recorder takes
			// analysistest's complaints, and the results are read here.
			for _, res := range analysistest.Run(discard{}, run.dir, a, pkgs...) {
				for _, d := range res.Diagnostics {
					pos := res.Pass.Fset.Position(d.Pos)
					rel, err := filepath.Rel(filepath.Join(run.dir, "src"), pos.Filename)
					if err != nil || !filepath.IsLocal(rel) {
						continue // a dependency's file
					}
					rule, _, _ := strings.Cut(d.Message, ":")
					k := key{filepath.ToSlash(rel), rule}
					run.counts[k]++
					if run.dir == testdata && len(d.SuggestedFixes) > 0 && owns[res.Pass.Pkg.Path()] {
						fixed[k]++
					}
				}
			}
		}
	}
	for k := range fixed {
		goldenFiles[k.file] = true
	}
	if len(fixed) == 0 {
		t.Fatal("no finding with a fix in the testdata: the test checks nothing")
	}
	for k, n := range after {
		if !goldenFiles[k.file] {
			continue // not fixed: nothing to compare
		}
		if stood := before[k] - fixed[k]; n > stood {
			t.Errorf("%s: %d finding(s) of %s after the fixes, where %d stood unfixed before (%d fixed): a fix leaves code that lints dirty",
				k.file, n, k.rule, stood, fixed[k])
		}
	}
}

// goldenTree copies the GOPATH tree testdata to a temporary directory, each
// .go file with a .golden beside it replaced by the golden, and returns the
// copy's root.
func goldenTree(t *testing.T, testdata string) string {
	t.Helper()
	root := t.TempDir()
	err := filepath.WalkDir(testdata, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".golden") {
			return err
		}
		rel, _ := filepath.Rel(testdata, path)
		src := path
		if _, err := os.Stat(path + ".golden"); err == nil {
			src = path + ".golden"
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// discard is an analysistest.Testing that drops what it is told.
type discard struct{}

func (discard) Errorf(string, ...any) {}
