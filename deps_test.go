package mcpcore_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoHeavyIntegration: a server built on the root package links
// none of OpenTelemetry (its API included: the server reports to an
// Observer, and package mcpotel is the OpenTelemetry one), no Redis
// client, gRPC or protobuf, no JWT or JWKS library: package app builds
// those from the environment (and the OTLP and Redis modules bring theirs,
// package mcphttp the bearer tokens), as values a program passes.
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
		case strings.HasPrefix(pkg, "go.opentelemetry.io/"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/mcpotel"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/fleet/opener"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/app"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/internal/otelsdk"),
			strings.HasPrefix(pkg, "github.com/seed417024ea/mcpcore/mcphttp"),
			strings.Contains(pkg, "jwt"), strings.Contains(pkg, "jwkset"),
			strings.Contains(pkg, "redis"),
			strings.HasPrefix(pkg, "google.golang.org/"):
			t.Errorf("the root package links %s", pkg)
		}
	}
}
