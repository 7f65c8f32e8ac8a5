package config

import (
	"flag"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// recorder is a getenv over m that notes every variable read.
type recorder struct {
	mu   sync.Mutex
	m    map[string]string
	read map[string]bool
}

func (r *recorder) getenv(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.read[name] = true
	return r.m[name]
}

// TestFromEnvReadsTheVariables checks that FromEnv reads every MCP_* and
// OAUTH_* variable of Variables, and no other: the table of the
// documentation is the whole configuration.
func TestFromEnvReadsTheVariables(t *testing.T) {
	t.Parallel()
	r := &recorder{read: map[string]bool{}}
	for _, m := range []map[string]string{
		nil,
		{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": strings.Repeat("k", 32), "OAUTH_ISSUER_URL": "https://id.example.com"},
		{"MCP_AUTH_MODE": "oauth", "OAUTH_ISSUER_URL": "https://id.example.com", "OAUTH_AUDIENCE": "https://mcp.example.com/mcp"},
		{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0", "MCP_AUTH_ALLOW_UNAUTHENTICATED": "true"},
	} {
		r.m = m
		FromEnv(r.getenv)
	}
	var want []string
	for _, v := range Variables {
		if !strings.HasPrefix(v.Name, "OTEL_") {
			want = append(want, v.Name)
		}
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(r.read)); !slices.Equal(got, want) {
		t.Errorf("FromEnv reads %v\nVariables list %v", got, want)
	}
}

func TestVariablesAreDistinct(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, v := range Variables {
		if seen[v.Name] || v.Default == "" || v.Doc == "" {
			t.Errorf("variable %q: listed twice, or without its default or meaning", v.Name)
		}
		seen[v.Name] = true
	}
}

var update = flag.Bool("update", false, "rewrite the table of "+configurationDoc+" from Variables")

// configurationDoc is the page whose table Markdown writes, between
// tableBegin and tableEnd; the text around it is the page's own.
const (
	configurationDoc = "../../docs/configuration.md"
	tableBegin       = "<!-- The table is generated from internal/config.Variables: go test ./internal/config -run TestConfigurationTable -update -->\n"
	tableEnd         = "<!-- End of the generated table. -->\n"
)

// TestConfigurationTable checks that the table of the documentation is the
// one Variables make; with -update, it writes it (and the page, when there
// is none yet).
func TestConfigurationTable(t *testing.T) {
	page, err := os.ReadFile(configurationDoc)
	if os.IsNotExist(err) && !*update {
		t.Skipf("%s is not written yet; go test ./internal/config -run TestConfigurationTable -update writes it", configurationDoc)
	}
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	text := string(page)
	before, rest, found := strings.Cut(text, tableBegin)
	_, after, closed := strings.Cut(rest, tableEnd)
	if !found || !closed {
		if !*update {
			t.Fatalf("%s has no generated table between the lines\n%s%s", configurationDoc, tableBegin, tableEnd)
		}
		before, after = text, ""
		if before == "" {
			before = "# Configuration\n\nEvery setting of a server, read from the environment.\n\n"
		}
	}
	want := before + tableBegin + Markdown() + tableEnd + after
	if *update {
		if err := os.WriteFile(configurationDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if text != want {
		t.Errorf("the table of %s is not the one of Variables; go test ./internal/config -run TestConfigurationTable -update rewrites it", configurationDoc)
	}
}
