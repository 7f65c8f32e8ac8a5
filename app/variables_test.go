package app

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

// TestConfigFromEnvReadsTheVariables checks that ConfigFromEnv reads every
// variable of the table, MCP_*, OAUTH_* and OTEL_* alike, and no other:
// the table of the documentation is the whole configuration.
func TestConfigFromEnvReadsTheVariables(t *testing.T) {
	t.Parallel()
	r := &recorder{read: map[string]bool{}}
	for _, m := range []map[string]string{
		nil,
		{"MCP_AUTH_MODE": "jwt", "MCP_AUTH_SECRET_KEY": strings.Repeat("k", 32), "OAUTH_ISSUER_URL": "https://id.example.com"},
		{"MCP_AUTH_MODE": "oauth", "OAUTH_ISSUER_URL": "https://id.example.com", "OAUTH_AUDIENCE": "https://mcp.example.com/mcp"},
		{"MCP_TRANSPORT_TYPE": "http", "MCP_HTTP_HOST": "0.0.0.0", "MCP_AUTH_ALLOW_UNAUTHENTICATED": "true"},
		{"OTEL_SDK_DISABLED": "true"},
		{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_METRICS_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SERVICE_NAME": "s"},
		{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://127.0.0.1:4318/v1/metrics"},
	} {
		r.m = m
		if _, err := ConfigFromEnv(r.getenv); err != nil {
			t.Fatalf("ConfigFromEnv(%v): %v", m, err)
		}
	}
	var want []string
	for _, v := range variables {
		want = append(want, v.Name)
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(r.read)); !slices.Equal(got, want) {
		t.Errorf("ConfigFromEnv reads %v\nthe table lists %v", got, want)
	}
}

func TestVariablesAreDistinct(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, v := range variables {
		if seen[v.Name] || v.Default == "" || v.Doc == "" {
			t.Errorf("variable %q: listed twice, or without its default or meaning", v.Name)
		}
		seen[v.Name] = true
	}
}

var update = flag.Bool("update", false, "rewrite the table of "+configurationDoc+" from variables")

// configurationDoc is the page whose table markdown writes, between
// tableBegin and tableEnd; the text around it is the page's own.
const (
	configurationDoc = "../docs/configuration.md"
	tableBegin       = "<!-- The table is generated from the variables of app/variables.go: go test ./app -run TestConfigurationTable -update -->\n"
	tableEnd         = "<!-- End of the generated table. -->\n"
)

// TestConfigurationTable checks that the table of the documentation is the
// one variables make; with -update, it writes it (and the page, when there
// is none yet).
func TestConfigurationTable(t *testing.T) {
	page, err := os.ReadFile(configurationDoc)
	if os.IsNotExist(err) && !*update {
		t.Skipf("%s is not written yet; go test ./app -run TestConfigurationTable -update writes it", configurationDoc)
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
	want := before + tableBegin + markdown() + tableEnd + after
	if *update {
		if err := os.WriteFile(configurationDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if text != want {
		t.Errorf("the table of %s is not the one of variables; go test ./app -run TestConfigurationTable -update rewrites it", configurationDoc)
	}
}
