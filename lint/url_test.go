package lint_test

import (
	"go/doc/comment"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint"
)

// TestRuleURLsHaveHeadings keeps every rule's URL pointing at a section: its
// analyzer's package documentation must have a heading whose anchor, as
// go/doc/comment (and so pkg.go.dev) forms it, is the URL's fragment.
func TestRuleURLsHaveHeadings(t *testing.T) {
	anchors := map[string]map[string]bool{} // by analyzer package
	for _, r := range lint.Rules {
		if anchors[r.Analyzer] == nil {
			anchors[r.Analyzer] = docAnchors(t, r.Analyzer)
		}
		base, fragment, ok := strings.Cut(r.URL(), "#")
		if want := "https://pkg.go.dev/github.com/seed417024ea/mcpcore/lint/" + r.Analyzer; !ok || base != want {
			t.Errorf("%s: URL %s, want %s#…", r.ID, r.URL(), want)
			continue
		}
		if !anchors[r.Analyzer][fragment] {
			t.Errorf("%s: lint/%s/doc.go has no heading \"# %s\" (anchor %s)", r.ID, r.Analyzer, r.ID, fragment)
		}
	}
}

// docAnchors returns the anchors of the headings of package pkg's doc
// comment, in lint/<pkg>/doc.go.
func docAnchors(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(pkg, "doc.go"), nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatalf("lint/%s/doc.go has no package comment", pkg)
	}
	var p comment.Parser
	anchors := map[string]bool{}
	for _, b := range p.Parse(f.Doc.Text()).Content {
		if h, ok := b.(*comment.Heading); ok {
			anchors[h.DefaultID()] = true
		}
	}
	return anchors
}

// unfixedBy names, by analyzer, the testdata packages of the analyzers
// that offer no fix, which fixedBy does not list.
var unfixedBy = map[string][]string{
	"mcpcredential": {"credential", "credential/shared", "credential/vocab"},
}

// TestReportsCarryURL runs the analyzers on their testdata and checks that
// each finding links to the documentation of the rule it names.
func TestReportsCarryURL(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, a := range lint.Analyzers {
		pkgs := slices.Concat(fixedBy[a.Name], unfixedBy[a.Name])
		if len(pkgs) == 0 {
			t.Errorf("%s: neither fixedBy nor unfixedBy names its testdata", a.Name)
			continue
		}
		for _, res := range analysistest.Run(t, testdata, a, pkgs...) {
			for _, d := range res.Diagnostics {
				seen++
				id, _, _ := strings.Cut(d.Message, ":")
				r, ok := lint.RuleByID(id)
				if !ok {
					t.Errorf("%s: a finding of no rule: %s", res.Pass.Fset.Position(d.Pos), d.Message)
					continue
				}
				if d.URL != r.URL() {
					t.Errorf("%s: %s has URL %q, want %q", res.Pass.Fset.Position(d.Pos), id, d.URL, r.URL())
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no finding on the testdata: the test checks nothing")
	}
}
