package mcpcore_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoHeavyIntegration: a server built on the root package links
// the OpenTelemetry API only, none of its SDK or exporters, no Redis
// client, gRPC or protobuf: package app builds those from the environment
// (and the OTLP and Redis modules bring theirs), as values a program
// passes.
func TestLinksNoHeavyIntegration(t *testing.T) {
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
		case strings.HasPrefix(pkg, "go.opentelemetry.io/otel/sdk"),
			strings.HasPrefix(pkg, "go.opentelemetry.io/otel/exporters"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/app"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/internal/otelsdk"),
			strings.Contains(pkg, "redis"),
			strings.HasPrefix(pkg, "google.golang.org/"):
			t.Errorf("the root package links %s", pkg)
		}
	}
}
