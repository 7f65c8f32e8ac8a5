package docscheck_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/docscheck"
	"github.com/seed417024ea/mcpcore/internal/testmodule"
)

// TestREADMEFirstServerAnswersAsShown runs the README's first server on the
// messages of its "try it by hand" block and compares what it prints with
// the block of output the README shows after it, byte for byte: the
// README's first transcript cannot drift from what the server does.
func TestREADMEFirstServerAnswersAsShown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the README's first server")
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, _, err := docscheck.Parse("README.md", string(b))
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for i < len(blocks) && !(blocks[i].Lang == "go" && strings.Contains(blocks[i].Code, "// Command hello")) {
		i++
	}
	if i+2 >= len(blocks) || blocks[i+1].Lang != "sh" || !strings.Contains(blocks[i+1].Code, "./bin/hello") || blocks[i+2].Lang != "json" {
		t.Fatal("README.md: want the ```go block of command hello, then the ```sh block that runs ./bin/hello, then its ```json output")
	}
	src, try, want := blocks[i], blocks[i+1], blocks[i+2]
	var input []string
	for _, m := range regexp.MustCompile(`'(\{.*\})'`).FindAllStringSubmatch(try.Code, -1) {
		input = append(input, m[1])
	}
	if len(input) == 0 {
		t.Fatalf("README.md:%d: no JSON-RPC message found in the block", try.Line)
	}

	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := testmodule.Copy(t, t.TempDir(), "example.com/hello", abs)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src.Code+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "hello")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("README.md:%d: go build: %v\n%s", src.Line, err, out)
	}
	run := exec.Command(bin)
	run.Stdin = strings.NewReader(strings.Join(input, "\n") + "\n")
	// The server's own defaults, whatever the test's environment says.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCP_") && !strings.HasPrefix(kv, "OTEL_") && !strings.HasPrefix(kv, "OAUTH_") {
			run.Env = append(run.Env, kv)
		}
	}
	var stderr strings.Builder
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		t.Fatalf("./bin/hello: %v\n%s", err, stderr.String())
	}
	// The server answers the calls of one input concurrently, so their
	// answers may come in either order: the lines are compared as a set.
	lines := func(s string) string {
		ls := strings.Split(strings.TrimSpace(s), "\n")
		slices.Sort(ls)
		return strings.Join(ls, "\n")
	}
	if got := string(out); lines(got) != lines(want.Code) {
		t.Errorf("README.md:%d: the output shown is not what the server prints.\nshown:\n%s\nprinted:\n%s", want.Line, want.Code, got)
	}
}
