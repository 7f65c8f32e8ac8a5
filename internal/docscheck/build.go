package docscheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Build writes files (as [Files] lays them out) into dir, the root of a
// module, and runs go build and go vet on all of them at once. On failure
// it returns the go command's output, whose positions are pages and lines.
func Build(dir string, files map[string]string) error {
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}
