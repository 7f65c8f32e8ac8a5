package mcpclient_test

import (
	"os/exec"
	"strings"
	"testing"
)

// A Go client of an mcpcore server links the shared vocabulary (package
// contract), not the server: none of its HTTP surface, JWT verifiers or
// OpenTelemetry.
func TestDoesNotLinkTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case pkg == "github.com/seed417024ea/mcpcore",
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/internal/httpserve"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/mcpotel"),
			strings.Contains(pkg, "jwt"),
			strings.Contains(pkg, "go.opentelemetry.io"):
			t.Errorf("mcpclient links %s", pkg)
		}
	}
}
