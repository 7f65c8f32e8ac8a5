package wiretest

import (
	"os"
	"path/filepath"
	"testing"
)

// Golden returns the golden file at path, for the caller to compare got
// with; with update set, it writes got there instead and returns nil.
// hint tells how to write a file that is missing.
func Golden(t testing.TB, path string, got []byte, update bool, hint string) []byte {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s)", err, hint)
	}
	return want
}
