package mcpcore_test

import (
	"encoding/json"
	"os/exec"
	"slices"
	"testing"
)

// TestLinterOutsideCoreModule checks that what only mcplint needs stays
// out of the core's go.mod, so out of every server's module graph, and
// that the linter's modules keep the paths `go get -tool
// github.com/seed417024ea/mcpcore/cmd/mcplint` and golangci-lint's plugin
// configurations name.
func TestLinterOutsideCoreModule(t *testing.T) {
	core := modFile(t, "go.mod")
	for _, linterOnly := range []string{"golang.org/x/tools", "golang.org/x/mod", "github.com/golangci/plugin-module-register"} {
		if slices.Contains(core.required(), linterOnly) {
			t.Errorf("the core's go.mod requires %s, which only the linter needs", linterOnly)
		}
	}
	for file, path := range map[string]string{
		"lint/go.mod":        "github.com/seed417024ea/mcpcore/lint",
		"cmd/mcplint/go.mod": "github.com/seed417024ea/mcpcore/cmd/mcplint",
	} {
		m := modFile(t, file)
		if m.Module.Path != path {
			t.Errorf("%s declares module %q, want %q", file, m.Module.Path, path)
		}
		if !slices.Contains(m.required(), "github.com/seed417024ea/mcpcore") {
			t.Errorf("%s does not require the core", file)
		}
	}
}

// goMod is what `go mod edit -json` says of a go.mod file.
type goMod struct {
	Module  struct{ Path string }
	Require []struct{ Path string }
}

func (m goMod) required() []string {
	var paths []string
	for _, r := range m.Require {
		paths = append(paths, r.Path)
	}
	return paths
}

func modFile(t *testing.T, file string) goMod {
	t.Helper()
	out, err := exec.Command("go", "mod", "edit", "-json", file).Output()
	if err != nil {
		t.Fatalf("go mod edit -json %s: %v", file, err)
	}
	var m goMod
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("go mod edit -json %s: %v", file, err)
	}
	return m
}
