// Package testmodule makes throwaway Go modules for tests that run a tool
// (mcplint, a golangci-lint binary) on code outside this module.
package testmodule

import (
	"os"
	"path/filepath"
	"testing"
)

// Copy copies the module template in the directory src to a temporary
// directory (a go.mod there is replaced), as the module path that requires
// this repository as it is: its go.mod names the repository at root, and
// its modules of their own (see [Integrations]), by absolute path, and it
// takes their go.sum files, so that a change of the repository's
// dependencies needs no change of the template. It sets GOFLAGS=-mod=mod
// for the test, since the copy's requirements follow the repository's.
func Copy(t testing.TB, src, path, root string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	const core = "github.com/seed417024ea/mcpcore"
	mod := "module " + path + "\n\ngo 1.26\n\nrequire " + core + " v0.0.0\n\nreplace " + core + " => " + root + "\n"
	var sum []byte
	for _, sub := range append([]string{""}, Integrations...) {
		modDir := filepath.Join(root, sub)
		b, err := os.ReadFile(filepath.Join(modDir, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		sum = append(sum, b...)
		if sub != "" {
			mod += "\nrequire " + core + "/" + sub + " v0.0.0\n\nreplace " + core + "/" + sub + " => " + modDir + "\n"
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	return dir
}

// Integrations are the directories of the repository's modules that a
// program may import beside the core (the docs do): the Redis and OTLP
// integrations, modules of their own so that the core's go.mod holds
// neither.
var Integrations = []string{"redis", "otlp"}
