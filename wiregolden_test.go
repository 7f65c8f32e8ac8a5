package mcpcore_test

// The golden files of TestHTTPWireGolden: compared, or rewritten with
// -update.

import (
	"bytes"
	stdcmp "cmp"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

var updateWire = flag.Bool("update", false, "rewrite the golden files of TestHTTPWireGolden under testdata/wire/")

// compareGolden compares got with testdata/wire/name, or rewrites the file
// with -update; a difference is shown line by line.
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "wire", name)
	want := wiretest.Golden(t, path, got, *updateWire, "go test -run TestHTTPWireGolden -update writes it")
	if want == nil || bytes.Equal(got, want) {
		return
	}
	// One difference per exchange, named: a file holds dozens.
	wantCases, gotCases := exchangesOf(string(want)), exchangesOf(string(got))
	for i := range max(len(wantCases), len(gotCases)) {
		var w, g string
		if i < len(wantCases) {
			w = wantCases[i]
		}
		if i < len(gotCases) {
			g = gotCases[i]
		}
		if w == g {
			continue
		}
		name, _, _ := strings.Cut(stdcmp.Or(g, w), "\n")
		t.Errorf("%s, %s, differs (-golden +now):\n%s", path, name, cmp.Diff(strings.Split(w, "\n"), strings.Split(g, "\n")))
	}
	t.Errorf("the wire differs from %s; if the change is meant, go test -run TestHTTPWireGolden -update rewrites it, and the diff of the file shows it", path)
}

// exchangesOf splits a golden file into its exchanges, each from its
// "### name" line.
func exchangesOf(file string) []string {
	var out []string
	for part := range strings.SplitSeq(file, "\n### ") {
		if len(out) > 0 {
			part = "### " + part
		}
		out = append(out, part)
	}
	return out
}
