package review_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/cmd/mcplint/internal/driver"
	"github.com/seed417024ea/mcpcore/cmd/mcplint/internal/review"
	"github.com/seed417024ea/mcpcore/lint"
)

// server is the clean server, relative to this package.
const server = "../../../../lint/testdata/realserver"

// cleanInfo are the info-level findings the clean server may have, as
// file and rule: contracts mcplint cannot compute, which it says so of.
// The clean server has none today.
var cleanInfo = []string{}

// TestCatalog checks that every mistake still applies to the server as it
// is: a change of the server that moves a mistake's text fails here, and
// quickly, rather than planting nothing.
func TestCatalog(t *testing.T) {
	ids := map[string]bool{}
	for _, m := range review.Mistakes {
		if ids[m.ID] {
			t.Errorf("%s: the ID is taken", m.ID)
		}
		ids[m.ID] = true
		if m.Mistake == "" || len(m.Edits) == 0 {
			t.Errorf("%s: a mistake needs a description and an edit", m.ID)
			continue
		}
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(server)); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(dir); err != nil {
			t.Error(err)
		}
		for _, r := range m.Rules {
			if _, ok := lint.RuleByID(r); !ok {
				t.Errorf("%s: no rule %s", m.ID, r)
			}
		}
	}
}

// TestPlant writes a copy of the server with one mistake planted to the
// directory $REVIEW_DIR, for a look at it by hand (mcplint run there, in
// the copy):
//
//	REVIEW_PLANT=M01-forbidden-unmapped REVIEW_DIR=/tmp/m01 go test -run TestPlant ./cmd/mcplint/internal/review
//
// It does nothing without $REVIEW_PLANT.
func TestPlant(t *testing.T) {
	id, dir := os.Getenv("REVIEW_PLANT"), os.Getenv("REVIEW_DIR")
	if id == "" {
		t.Skip("set REVIEW_PLANT to a mistake's ID and REVIEW_DIR to a new directory")
	}
	i := slices.IndexFunc(review.Mistakes, func(m review.Mistake) bool { return m.ID == id })
	if i < 0 || dir == "" {
		t.Fatalf("no mistake %q, or no REVIEW_DIR", id)
	}
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	plant(t, dir, root, "example.com/realserver", review.Mistakes[i])
}

// TestReview runs mcplint on the clean server and on each mistake planted
// alone, and logs the table of what each rule reported. A mistake whose
// expectation is not met fails the test, unless it is a known miss.
//
// Every copy is a module of one workspace, under a module path of its own,
// and mcplint runs once on all of them: the packages every copy imports
// (mcpcore, the MCP SDK, OpenTelemetry) are then loaded and analyzed once,
// which is most of what a run costs, instead of once per mistake.
func TestReview(t *testing.T) {
	if testing.Short() {
		t.Skip("lints 29 copies of the server in one run: 5 s on a quiet 2-core machine, 20 s under load, 50 s with -race")
	}
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	work := "go 1.26.0\n\nuse (\n"
	copies := append([]review.Mistake{{ID: "clean"}}, review.Mistakes...)
	for _, m := range copies {
		dir := strings.ToLower(m.ID)
		plant(t, filepath.Join(ws, dir), root, "example.com/review/"+dir, m)
		work += "\t./" + dir + "\n"
	}
	if err := os.WriteFile(filepath.Join(ws, "go.work"), []byte(work+")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(ws)
	t.Setenv("GOWORK", filepath.Join(ws, "go.work"))
	t.Setenv("GOFLAGS", "") // a -mod=mod of the caller's is refused in workspace mode
	var patterns []string
	for _, m := range copies {
		patterns = append(patterns, "./"+strings.ToLower(m.ID)+"/...")
	}
	var stdout, stderr bytes.Buffer
	tool := driver.Tool{Analyzers: lint.Analyzers, Rules: lint.Rules, Level: lint.LevelOf}
	start := time.Now()
	if code := tool.Run(patterns, &stdout, &stderr); code != driver.ExitClean && code != driver.ExitFindings {
		hint := ""
		if strings.Contains(stderr.String(), "go.mod") || strings.Contains(stderr.String(), "go.sum") {
			// The repository's requirements changed since the server's
			// go.mod was tidied.
			hint = "\n(run go mod tidy in lint/testdata/realserver, with GOFLAGS=-mod=mod)"
		}
		t.Fatalf("mcplint: exit %d; stderr:\n%s%s", code, stderr.String(), hint)
	}
	t.Logf("mcplint on %d copies: %s", len(copies), time.Since(start).Round(100*time.Millisecond))
	byCopy := parse(t, stdout.String())

	clean := byCopy["clean"]
	for _, f := range clean {
		if f.rule == "error-contract-unanalyzable" && slices.Contains(cleanInfo, f.file+" "+f.rule) {
			t.Logf("clean: %s (info, allowed)", f.line)
			continue
		}
		t.Errorf("clean: %s", f.line)
	}

	table := []string{"| id | mistake | expected | reported by |", "|---|---|---|---|"}
	for _, m := range review.Mistakes {
		added := subtract(byCopy[strings.ToLower(m.ID)], clean)
		caught := meets(m, added)
		var by []string
		for _, f := range added {
			by = append(by, f.rule+" at "+f.file)
		}
		reported := "—"
		if len(by) > 0 {
			reported = strings.Join(slices.Compact(by), "; ")
		}
		switch {
		case !caught && m.KnownMiss:
			reported += " (known miss)"
		case !caught:
			t.Errorf("%s: expected %s; mcplint reported:\n%s", m.ID, m.Expected(), lines(added))
		case m.KnownMiss:
			reported += " (met now: drop KnownMiss)"
			t.Logf("%s meets its expectation now; drop its KnownMiss", m.ID)
		}
		table = append(table, fmt.Sprintf("| %s | %s | %s | %s |", m.ID, escape(m.Mistake), m.Expected(), escape(reported)))
		if len(added) > 0 {
			t.Logf("%s:\n%s", m.ID, lines(added))
		}
	}
	t.Logf("mcplint on lint/testdata/realserver, one mistake at a time:\n%s", strings.Join(table, "\n"))
}

// A finding is one line of mcplint's output.
type finding struct {
	line string // as printed
	file string // in its copy of the server
	rule string
	msg  string // the message after the rule ID
}

var findingLine = regexp.MustCompile(`^([^/:]+)/([^:]+):\d+:\d+: ([a-z0-9-]+): (.*)$`)

// parse reads mcplint's output, each finding under the directory of its
// copy.
func parse(t *testing.T, out string) map[string][]finding {
	t.Helper()
	fs := map[string][]finding{}
	for l := range strings.Lines(out) {
		l = strings.TrimSuffix(l, "\n")
		s := findingLine.FindStringSubmatch(l)
		if s == nil {
			t.Fatalf("mcplint printed a line that is not a finding in a copy: %q", l)
		}
		fs[s[1]] = append(fs[s[1]], finding{line: l, file: s[2], rule: s[3], msg: s[4]})
	}
	return fs
}

// plant copies the server to dir as the module mod, requiring the
// repository at root, and plants m in the copy. The copy requires the
// repository by its absolute path, since the relative one of the server's
// go.mod points nowhere from the copy.
func plant(t *testing.T, dir, root, mod string, m review.Mistake) {
	t.Helper()
	if err := os.CopyFS(dir, os.DirFS(server)); err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(dir); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(dir, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(name) != ".go" && d.Name() != "go.mod") {
			return err
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		b = bytes.ReplaceAll(b, []byte("example.com/realserver"), []byte(mod))
		if d.Name() == "go.mod" {
			b = bytes.Replace(b, []byte("=> ../../.."), []byte("=> "+root), 1)
		}
		return os.WriteFile(name, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// The repository's sums too, for a requirement it gained since the
	// server's go.sum was written.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "go.sum"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(sum); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// subtract returns the findings of fs that base does not have, compared
// by file and message, since a planted mistake moves the lines below it.
func subtract(fs, base []finding) []finding {
	left := map[string]int{}
	for _, f := range base {
		left[f.file+"\x00"+f.msg]++
	}
	var added []finding
	for _, f := range fs {
		k := f.file + "\x00" + f.msg
		if left[k] > 0 {
			left[k]--
			continue
		}
		added = append(added, f)
	}
	return added
}

// meets reports whether the findings a mistake added meet its
// expectation: one of its rules at its file, or, for a negative case, no
// finding, or only findings that say the code depends on a condition.
func meets(m review.Mistake, added []finding) bool {
	if len(m.Rules) == 0 {
		return !slices.ContainsFunc(added, func(f finding) bool { return !strings.Contains(f.msg, " if ") })
	}
	return slices.ContainsFunc(added, func(f finding) bool {
		return f.file == m.Where() && slices.Contains(m.Rules, f.rule)
	})
}

// lines joins the findings' lines.
func lines(fs []finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.line + "\n")
	}
	return b.String()
}

// escape keeps a cell of the markdown table one cell.
func escape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
