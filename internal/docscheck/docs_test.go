package docscheck_test

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/docscheck"
	"github.com/seed417024ea/mcpcore/internal/testmodule"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// pages returns README.md and docs/*.md, by path from the root, with their
// text.
func pages(t *testing.T) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, filepath.Join(root, "README.md"))
	out := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(root, n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.ToSlash(rel)] = string(b)
	}
	if len(out) < 2 {
		t.Fatalf("found %d pages; want README.md and docs/*.md", len(out))
	}
	return out
}

// parse returns the blocks and contexts of every page, in page order.
func parse(t *testing.T, pages map[string]string) ([]docscheck.Block, []docscheck.Context) {
	t.Helper()
	var blocks []docscheck.Block
	var contexts []docscheck.Context
	for _, p := range slices.Sorted(maps.Keys(pages)) {
		b, c, err := docscheck.Parse(p, pages[p])
		if err != nil {
			t.Fatal(err)
		}
		blocks, contexts = append(blocks, b...), append(contexts, c...)
	}
	return blocks, contexts
}

// TestGoBlocksCompile builds and vets every ```go block of the README and
// the docs in one throwaway module that requires this repository as it is.
// A block that does not compile fails it at its page and line.
func TestGoBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of the docs' Go blocks")
	}
	blocks, contexts := parse(t, pages(t))
	n := 0
	for _, b := range blocks {
		if b.Lang == "go" {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no ```go block found: the extraction is broken")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := testmodule.Copy(t, t.TempDir(), "example.com/docs", abs)
	if err := docscheck.Build(dir, docscheck.Files(blocks, contexts)); err != nil {
		t.Fatalf("a Go block of the docs does not compile:\n%v", err)
	}
	t.Logf("%d Go blocks and %d contexts compiled and vetted", n, len(contexts))
}

// TestBrokenBlockNamesPageAndLine is the check of the check: a block that
// does not compile, of each kind, fails with its page and line.
func TestBrokenBlockNamesPageAndLine(t *testing.T) {
	page := strings.Join([]string{
		"# Broken", // 1
		"",         // 2
		"```go",    // 3
		"var ok = fmt.Sprint(1)",
		"var n int = \"not a number\"", // 5
		"```",
		"",
		"<!-- go:body func() error -->", // 8
		"```go",
		"return undefinedThing", // 10
		"```",
		"",
		"```go",
		"// Command x is broken.", // 14
		"package main",
		"func main() { var unused int }", // 16
		"```",
	}, "\n")
	blocks, contexts, err := docscheck.Parse("docs/broken.md", page)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/broken\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = docscheck.Build(dir, docscheck.Files(blocks, contexts))
	if err == nil {
		t.Fatal("a page of broken blocks built")
	}
	for _, want := range []string{"docs/broken.md:5:", "docs/broken.md:10:", "docs/broken.md:16:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the failure does not name %s:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "docs/broken.md:4:") {
		t.Errorf("a good line is reported:\n%v", err)
	}
}

// TestParseRefusesMisplacedMarkers: a marker that applies to nothing is a
// mistake of the page, reported at its line.
func TestParseRefusesMisplacedMarkers(t *testing.T) {
	for page, want := range map[string]string{
		"<!-- go:body func() -->\n\nsome prose\n```go\nx\n```\n": "p.md:1: a go:body marker that no ```go block follows",
		"<!-- go:body func() -->\n```sh\nls\n```\n":              "p.md:1: a go:body marker before a block that is not ```go",
		"<!-- go:body func() -->\n":                              "p.md:1: a go:body marker that no ```go block follows",
		"<!-- go:body x -->\n```go\nx\n```\n":                    "p.md:1: a go:body marker is",
		"text\n```go\nx\n":                                       "p.md:2: a code fence that is never closed",
		"<!-- go:context\ntype T int\n":                          "p.md:1: a go:context comment that is never closed",
	} {
		_, _, err := docscheck.Parse("p.md", page)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %s…", page, err, want)
		}
	}
}

// TestFencesNameTheirLanguage: every fence says what it holds, so that Go
// code cannot escape the compile check in a fence without a language, and
// Go is spelt go.
func TestFencesNameTheirLanguage(t *testing.T) {
	blocks, _ := parse(t, pages(t))
	for _, b := range blocks {
		switch b.Lang {
		case "":
			t.Errorf("%s:%d: a fence without a language: write ```go, ```sh, ```json, ```text, …", b.Page, b.Line-1)
		case "golang", "Go", "go-fragment":
			t.Errorf("%s:%d: write ```go", b.Page, b.Line-1)
		}
	}
}

// TestLinks checks that every relative link of the README and the docs
// points at a file that exists and, when it has a fragment, at a heading of
// that page.
func TestLinks(t *testing.T) {
	all := pages(t)
	anchors := map[string]map[string]bool{}
	for p, src := range all {
		anchors[p] = docscheck.Anchors(src)
	}
	n := 0
	for _, p := range slices.Sorted(maps.Keys(all)) {
		for _, l := range docscheck.Links(p, all[p]) {
			if strings.Contains(l.Target, "://") || strings.HasPrefix(l.Target, "mailto:") {
				continue
			}
			n++
			file, frag, _ := strings.Cut(l.Target, "#")
			target := p
			if file != "" {
				target = path.Clean(path.Join(path.Dir(p), file))
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s:%d: link to %s: no such file", l.Page, l.Line, l.Target)
					continue
				}
			}
			if frag == "" {
				continue
			}
			a, ok := anchors[target]
			if !ok {
				t.Errorf("%s:%d: link to %s: a fragment into a file that is not a page", l.Page, l.Line, l.Target)
			} else if !a[frag] {
				t.Errorf("%s:%d: link to %s: %s has no heading #%s", l.Page, l.Line, l.Target, target, frag)
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative link found: the extraction is broken")
	}
}
